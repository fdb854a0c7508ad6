// Which addresses are public: the rule the residential gateway applies to every target it connects to (gateway/egress.ts,
// which also refuses the host's own addresses) and the customer settings apply to an authorised IP
// (modules/customer-settings/authorized-ips.ts). Pure: no lookup, no socket.
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** IANA's global unicast allocation: every other IPv6 block is reserved or special (RFC 4291, the address space registry). */
const IPV6_GLOBAL_UNICAST = ipaddr.parse('2000::');

/**
 * ipaddr.js reads the deprecated IPv4-compatible spelling ::a.b.c.d as the mapped ::ffff:a.b.c.d; the system connects to
 * it as the IPv6 address ::xxxx:yyyy (and writes ::808:808 that way too, inet_ntop), so it is built from its bytes here.
 */
function ipv4Compatible(address: string): ipaddr.IPv6 | undefined {
  const tail = /^::(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(address)?.[1];
  if (!tail) return undefined;
  const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(tail).octets;
  return new ipaddr.IPv6([0, 0, 0, 0, 0, 0, (a << 8) | b, (c << 8) | d]);
}

/**
 * The address as the gateway would reach it, or undefined when it is no IP address. An IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d, in any spelling, hex or long) is that IPv4 address on a dual-stack socket, so it is judged as one.
 */
export function addressAsReached(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!net.isIP(address)) return undefined;
  try {
    const ip = ipv4Compatible(address) ?? ipaddr.parse(address);
    return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
  } catch {
    return undefined;
  }
}

/**
 * True unless the address is globally routable unicast by ipaddr.js's ranges of the IANA special-purpose registries,
 * so the gateway is no way into the operator's network. IPv6 spellings holding an IPv4 address other than the mapped
 * one (NAT64, 6to4, Teredo, ::a.b.c.d) are refused whatever that address is: a check cannot see past their translator.
 */
export function isRefusedAddress(address: string): boolean {
  const ip = addressAsReached(address);
  if (!ip) return true;
  if (ip.range() !== 'unicast') return true;
  return ip.kind() === 'ipv6' && !ip.match(IPV6_GLOBAL_UNICAST, 3);
}
