import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import { addressAsReached, isRefusedAddress } from '../lib/public-address.ts';

/** One spelling per address, so that the host's own addresses compare whatever way a target writes them. */
function canonical(address: string): string | undefined {
  return addressAsReached(address.split('%')[0] ?? '')?.toNormalizedString();
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

/** How long one read of the host's interface addresses is used before the next check reads them again. */
const INTERFACES_REFRESH_MS = 1000;

/**
 * Checks a target before the gateway connects. A literal address is checked at once; a name is resolved here, every
 * address checked, and the connection is then made to those same addresses (a pinned lookup), so a name that resolves
 * to a public address now and a private one a moment later cannot slip through. Besides the special-purpose ranges, the
 * host's own addresses (every interface) are refused: a public address on an interface reaches every service listening
 * on this machine. They are read again at most every `refreshMs`, on the first check after that, so an
 * address the machine gains is refused within that time; no timer runs.
 */
export class Egress {
  readonly #allowPrivate: boolean;
  readonly #interfaces: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
  readonly #refreshMs: number;
  #own = new Set<string>();
  #readAt = Number.NEGATIVE_INFINITY;

  constructor(options: {
    /** GATEWAY_ALLOW_PRIVATE: every target is allowed (tests, closed networks). */
    allowPrivate: boolean;
    interfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
    refreshMs?: number;
  }) {
    this.#allowPrivate = options.allowPrivate;
    this.#interfaces = options.interfaces ?? os.networkInterfaces;
    this.#refreshMs = options.refreshMs ?? INTERFACES_REFRESH_MS;
  }

  /** True for an address the gateway must not reach: special-purpose, or one of this machine's own. */
  isRefused(address: string): boolean {
    if (isRefusedAddress(address)) return true;
    const key = canonical(address);
    return key === undefined || this.#ownAddresses().has(key);
  }

  #ownAddresses(): ReadonlySet<string> {
    const now = Date.now();
    if (now - this.#readAt >= this.#refreshMs) {
      const own = new Set<string>();
      for (const entries of Object.values(this.#interfaces())) {
        for (const { address } of entries ?? []) {
          const key = canonical(address);
          if (key !== undefined) own.add(key);
        }
      }
      this.#own = own;
      this.#readAt = now;
    }
    return this.#own;
  }

  /** Resolves to the lookup the connection must use (a name's checked addresses), or undefined; throws EgressRefused. */
  async check(hostname: string, resolve: boolean): Promise<PinnedLookup | undefined> {
    if (this.#allowPrivate) return undefined;
    const host = unbracketed(hostname);
    if (net.isIP(host)) {
      if (this.isRefused(host)) {
        throw new EgressRefused(`The gateway does not connect to ${host}: a private, reserved or local address.`);
      }
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
    if (addresses.length === 0 || addresses.some(({ address }) => this.isRefused(address))) {
      throw new EgressRefused(
        `The gateway does not connect to ${host}: it resolves to a private, reserved or local address.`,
      );
    }
    return pinnedLookup(addresses);
  }
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
