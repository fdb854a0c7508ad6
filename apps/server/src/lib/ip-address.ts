import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * One spelling per single address, so that an address a customer types and the one a socket reports compare equal: IPv4
 * in dotted decimal, an IPv4-mapped IPv6 address (a dual-stack socket's ::ffff:a.b.c.d) as its IPv4 address, IPv6 in the
 * short form of RFC 5952 (lower case, the longest run of zeros as ::). Undefined for anything that is not one address
 * (a range, a name, a zone index).
 */
export function canonicalIp(address: string): string | undefined {
  const value = address.trim();
  // Node's test takes dotted decimal only (no leading zeros): such an address is already in its one spelling.
  if (net.isIPv4(value)) return value;
  if (!net.isIP(value) || value.includes('%')) return undefined;
  try {
    return ipaddr.process(value).toString();
  } catch {
    return undefined;
  }
}

/**
 * The key a client is counted under by every limit (the web's and the gateway's): its IPv4 address (an IPv4-mapped
 * IPv6 one included), or the /64 of an IPv6 address, one subscriber's network, in which a client may take a new
 * address for every guess.
 */
export function sourceKey(remoteAddress: string | undefined): string {
  const address = remoteAddress ?? 'unknown';
  if (net.isIPv4(address)) return address;
  try {
    const ip = ipaddr.process(address.split('%')[0] ?? address);
    if (ip.kind() === 'ipv4') return ip.toString();
    return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/64`).toString()}/64`;
  } catch {
    return address;
  }
}

/** A socket's remote address in that spelling (a link-local address loses its zone index); undefined without one. */
export function socketIp(remoteAddress: string | undefined): string | undefined {
  return remoteAddress === undefined ? undefined : canonicalIp(remoteAddress.split('%')[0] ?? '');
}
