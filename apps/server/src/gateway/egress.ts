import dns from 'node:dns';
import net from 'node:net';

/**
 * Which targets the gateway may reach. Loopback, private, link-local, shared (CGNAT), multicast and reserved ranges are
 * refused unless allowed, so the gateway is no way into the operator's own network (issue 15, item 4). Uses Node's own
 * BlockList for the range checks.
 */
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/** True for an address in a range the gateway must not reach (IPv4-mapped IPv6 addresses are read as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return false;
}

export class EgressRefused extends Error {}

type LookupAddress = { address: string; family: number };
export type PinnedLookup = typeof dns.lookup;

function unbracketed(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Names that always mean this machine, whatever the resolver says. */
function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal');
}

/**
 * Checks a target before the gateway connects. A literal address is checked at once; a name is resolved here, every
 * address checked, and the connection is then made to those same addresses (a pinned lookup), so a name that resolves
 * to a public address now and a private one a moment later cannot slip through.
 */
export async function checkTarget(
  hostname: string,
  allowPrivate: boolean,
  resolve: boolean,
): Promise<PinnedLookup | undefined> {
  if (allowPrivate) return undefined;
  const host = unbracketed(hostname);
  if (net.isIP(host)) {
    if (isPrivateAddress(host)) throw new EgressRefused(`The gateway does not connect to private address ${host}.`);
    return undefined;
  }
  if (isLocalName(host)) throw new EgressRefused(`The gateway does not connect to ${host}.`);
  if (!resolve) return undefined;
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new EgressRefused(`The name ${host} could not be resolved.`, { cause: 'ENOTFOUND' });
  }
  if (addresses.length === 0 || addresses.some(({ address }) => isPrivateAddress(address))) {
    throw new EgressRefused(`The gateway does not connect to ${host}: it resolves to a private address.`);
  }
  return pinnedLookup(addresses);
}

function pinnedLookup(addresses: LookupAddress[]): PinnedLookup {
  const lookup = (
    _hostname: string,
    options: unknown,
    callback?: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const done = typeof options === 'function' ? (options as typeof callback) : callback;
    const wanted =
      typeof options === 'object' && options !== null ? (options as { all?: boolean; family?: number }) : {};
    const family = wanted.family === 4 || wanted.family === 6 ? wanted.family : undefined;
    const usable = family ? addresses.filter((entry) => entry.family === family) : addresses;
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error('no address of the wanted family');
      error.code = 'ENOTFOUND';
      process.nextTick(() => done?.(error, []));
      return;
    }
    process.nextTick(() => (wanted.all ? done?.(null, usable) : done?.(null, first.address, first.family)));
  };
  return lookup as unknown as PinnedLookup;
}
