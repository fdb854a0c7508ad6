import { hash, timingSafeEqual } from 'node:crypto';
import { BYTES_PER_KB } from '@storefront/contract/residential.ts';
import { LRUCache } from 'lru-cache';
import { isBannedNow } from '../lib/ban.ts';
import { type SqlClient, toNumber } from './sql.ts';

/**
 * A residential account as the gateway sees it, for its main user or one of its proxy users (whose username is the
 * account's, an underscore and the proxy user's name); one object per username, refreshed in place.
 */
export interface GatewayAccount {
  userId: string;
  /** The proxy user, or '' for the account's main user. */
  proxyUserId: string;
  /** What the meter keys its bytes and slices by: the account and the proxy user. */
  meterKey: string;
  username: string;
  /** SHA-256 of the password, made once per password read: a request hashes only what it was given. */
  passwordDigest: Buffer;
  /** Bumped whenever a read finds another password: a connection opened with an older one is cut. */
  passwordVersion: number;
  totalKb: number;
  /** used_kb when the row was last read. */
  usedKbAtFetch: number;
  /** Bytes this gateway metered since that read that the read did not include (not yet written, or written after). */
  localBytes: number;
  blocked: boolean;
  /** The customer's authorised IPs (canonical spelling): they connect without credentials. */
  authorizedIps: readonly string[];
  /** "Only from these IPs": credentials are refused from any other address. */
  authorizedIpsOnly: boolean;
  /** The customer lets their targets' domains be recorded in their usage analytics. */
  recordDomains: boolean;
  /** A proxy user its owner paused: refused, and its open connections cut. */
  paused: boolean;
  /** Countries a proxy user's lines may target; empty: every country. */
  countries: readonly string[];
  /** Connections a proxy user may hold at once through this gateway, if it has a limit. */
  maxConnections: number | undefined;
  /** The row was not there at the last read (deleted, or its username changed). */
  gone: boolean;
  fetchedAt: number;
}

/** What is left to carry, in bytes, as far as this gateway knows (other gateways' use arrives with the next read). */
export function remainingBytes(account: GatewayAccount): number {
  return (account.totalKb - account.usedKbAtFetch) * BYTES_PER_KB - account.localBytes;
}

/** Whether the account may carry nothing more: open connections are cut, new requests refused. */
export function mustStop(account: GatewayAccount): boolean {
  return account.gone || account.blocked || account.paused || remainingBytes(account) <= 0;
}

/** The meter's key of an account's main user or proxy user. */
export const meterKeyOf = (userId: string, proxyUserId: string) => (proxyUserId ? `${userId} ${proxyUserId}` : userId);

/** A proxy user's username split into the account's and the proxy user's name; undefined for a main user's. */
export function proxyUserOf(username: string): { account: string; name: string } | undefined {
  const underscore = username.indexOf('_');
  if (underscore <= 0) return undefined;
  return { account: username.slice(0, underscore), name: username.slice(underscore + 1) };
}

/** Whether a connection from `clientIp` may use the account's password (always, unless "only from these IPs"). */
export function allowedFrom(account: GatewayAccount, clientIp: string): boolean {
  return !account.authorizedIpsOnly || account.authorizedIps.includes(clientIp);
}

/** One call, no Hash object: a new connection's password check is this and a compare. */
const digest = (value: string) => hash('sha256', value, 'buffer');

/** Compares in constant time, whatever the lengths. */
export function passwordMatches(account: GatewayAccount, password: string): boolean {
  return timingSafeEqual(account.passwordDigest, digest(password));
}

/**
 * Accounts (and unknown usernames) remembered at once; the least recently used go first. Counted as a size of one per
 * entry rather than lru-cache's `max`, which allocates all its slots up front.
 */
const MAX_CACHED = { maxSize: 100_000, sizeCalculation: () => 1 };
/** Usernames per query when the accounts of open connections are read again. */
const REFRESH_BATCH = 500;

const ACCOUNT_COLUMNS = `
  ra.username, ra.user_id, ra.password, ra.total_kb, ra.used_kb, u.banned, u.ban_expires,
  '' as proxy_user_id, false as paused, '{}'::text[] as countries, null::integer as max_connections,
  coalesce(p.authorized_ips_only, false) as authorized_ips_only, coalesce(p.record_domains, true) as record_domains,
  array(
    select a.ip from authorized_ips a where a.user_id = ra.user_id and a.proxy_user_id is null order by a.ip
  ) as authorized_ips
  from residential_accounts ra
  join users u on u.id = ra.user_id
  left join customer_preferences p on p.user_id = ra.user_id`;

/**
 * A proxy user as the gateway reads it, by (account username, name) pairs ($1, $2): its own password, pause, countries,
 * limit and authorised IPs, with its account's data, ban and "only from these IPs".
 */
const PROXY_USER_QUERY = `
  select ra.username || '_' || pu.name as username, ra.user_id, pu.password, ra.total_kb, ra.used_kb, u.banned,
    u.ban_expires, pu.id as proxy_user_id, pu.paused, pu.countries, pu.max_connections,
    coalesce(p.authorized_ips_only, false) as authorized_ips_only, coalesce(p.record_domains, true) as record_domains,
    array(select a.ip from authorized_ips a where a.proxy_user_id = pu.id order by a.ip) as authorized_ips
  from unnest($1::text[], $2::text[]) as wanted(account, name)
  join residential_accounts ra on ra.username = wanted.account
  join proxy_users pu on pu.user_id = ra.user_id and pu.name = wanted.name and pu.deleted_at is null
  join users u on u.id = ra.user_id
  left join customer_preferences p on p.user_id = ra.user_id`;

/** What the cache keeps for a username that has no account, so that bad credentials do not each cost a query. */
const MISSING = Object.freeze({ missing: true as const });
type Missing = typeof MISSING;

/**
 * Accounts read once per `cacheMs` per username (unknown ones too, so bad credentials cost no query each), so a request
 * costs no round trip and a change takes effect within that time; `refresh` reads open connections' accounts again so
 * that a change reaches connections that make no new request.
 */
export class AccountCache {
  readonly #sql: SqlClient;
  readonly #cacheMs: number;
  /** Bytes metered but not yet written, per meter key (the meter's), to carry over into a fresh read. */
  readonly #unwritten: (meterKey: string) => number;
  readonly #accounts: LRUCache<string, GatewayAccount | Missing>;
  /** Authorised IP → the username of the account it belongs to (or none). */
  readonly #ips: LRUCache<string, { username: string | undefined }>;

  constructor(options: { sql: SqlClient; cacheMs: number; unwritten: (meterKey: string) => number }) {
    this.#sql = options.sql;
    this.#cacheMs = options.cacheMs;
    this.#unwritten = options.unwritten;
    this.#accounts = new LRUCache({
      ...MAX_CACHED,
      ttl: options.cacheMs,
      // A refresh that sets the username while it is being read does not fail that read's waiters.
      ignoreFetchAbort: true,
      // A read that fails (the database away) keeps the account read before: the connections holding it keep the one
      // object, and the next request reads again.
      noDeleteOnFetchRejection: true,
      // The account read before is updated in place: the connections holding it see the new read.
      fetchMethod: async (username, before) => {
        const [row] = await this.#read([username]);
        return this.#apply(username, row, Date.now(), before && !('missing' in before) ? before : undefined);
      },
    });
    this.#ips = new LRUCache({
      ...MAX_CACHED,
      ttl: options.cacheMs,
      noDeleteOnFetchRejection: true,
      fetchMethod: async (ip) => {
        // The username of the main user or of the proxy user the address belongs to.
        const { rows } = await this.#sql.query(
          `select coalesce(ra.username || '_' || pu.name, ra.username) as username
          from authorized_ips a
          join residential_accounts ra on ra.user_id = a.user_id
          left join proxy_users pu on pu.id = a.proxy_user_id and pu.deleted_at is null
          where a.ip = $1 and (a.proxy_user_id is null or pu.id is not null)`,
          [ip],
        );
        return { username: rows[0] === undefined ? undefined : String(rows[0].username) };
      },
    });
  }

  /** With a cache time of 0 every request reads (concurrent ones still share the read). */
  get #fetchOptions() {
    return { forceRefresh: this.#cacheMs === 0 };
  }

  async get(username: string): Promise<GatewayAccount | undefined> {
    const found = await this.#accounts.fetch(username, this.#fetchOptions);
    return found === undefined || 'missing' in found ? undefined : found;
  }

  /** The account that authorised `ip` (canonical spelling), if any. */
  async byAuthorizedIp(ip: string): Promise<GatewayAccount | undefined> {
    const username = (await this.#ips.fetch(ip, this.#fetchOptions))?.username;
    if (username === undefined) return undefined;
    const account = await this.get(username);
    // The list is read with the account too: an address taken off it meanwhile no longer lets anyone in.
    return account?.authorizedIps.includes(ip) ? account : undefined;
  }

  /**
   * Reads again, in a few queries, every given account whose read would be older than `cacheMs` within `aheadMs` (the
   * caller's next chance to ask), and updates them in place; an account whose row is gone is marked `gone`.
   */
  async refresh(accounts: Iterable<GatewayAccount>, aheadMs = 0): Promise<void> {
    const oldest = Date.now() - this.#cacheMs + aheadMs;
    const stale = new Map<string, GatewayAccount>();
    for (const account of accounts) {
      if (account.fetchedAt <= oldest && !account.gone) stale.set(account.username, account);
    }
    const usernames = [...stale.keys()];
    for (let start = 0; start < usernames.length; start += REFRESH_BATCH) {
      const batch = usernames.slice(start, start + REFRESH_BATCH);
      const rows = await this.#read(batch);
      const now = Date.now();
      const found = new Map(rows.map((row) => [String(row.username), row]));
      for (const username of batch) {
        const cached = this.#accounts.peek(username, { allowStale: true });
        const known = stale.get(username) ?? (cached && !('missing' in cached) ? cached : undefined);
        this.#accounts.set(username, this.#apply(username, found.get(username), now, known));
      }
    }
  }

  /** The rows of the given usernames, main users' and proxy users' (in two queries when both are asked for). */
  async #read(usernames: string[]): Promise<Record<string, unknown>[]> {
    const main: string[] = [];
    const proxied: { account: string; name: string }[] = [];
    for (const username of usernames) {
      const proxyUser = proxyUserOf(username);
      if (proxyUser) proxied.push(proxyUser);
      else main.push(username);
    }
    const [mainRows, proxyRows] = await Promise.all([
      main.length === 0
        ? []
        : this.#sql.query(`select ${ACCOUNT_COLUMNS} where ra.username = any($1::text[])`, [main]).then((r) => r.rows),
      proxied.length === 0
        ? []
        : this.#sql
            .query(PROXY_USER_QUERY, [proxied.map((p) => p.account), proxied.map((p) => p.name)])
            .then((r) => r.rows),
    ]);
    return [...mainRows, ...proxyRows];
  }

  /** What a read found, for the cache to keep: `existing` (the account read before) updated in place if still the same. */
  #apply(
    username: string,
    row: Record<string, unknown> | undefined,
    now: number,
    existing: GatewayAccount | undefined,
  ): GatewayAccount | Missing {
    if (!row) {
      if (existing) existing.gone = true;
      return MISSING;
    }
    const userId = String(row.user_id);
    const proxyUserId = String(row.proxy_user_id ?? '');
    const password = String(row.password);
    const account: GatewayAccount =
      existing && !existing.gone && existing.userId === userId && existing.proxyUserId === proxyUserId
        ? existing
        : {
            userId,
            proxyUserId,
            meterKey: meterKeyOf(userId, proxyUserId),
            username,
            passwordDigest: digest(password),
            passwordVersion: 0,
            totalKb: 0,
            usedKbAtFetch: 0,
            localBytes: 0,
            blocked: false,
            authorizedIps: [],
            authorizedIpsOnly: false,
            recordDomains: true,
            paused: false,
            countries: [],
            maxConnections: undefined,
            gone: false,
            fetchedAt: 0,
          };
    const passwordDigest = account === existing ? digest(password) : account.passwordDigest;
    if (!passwordDigest.equals(account.passwordDigest)) {
      account.passwordDigest = passwordDigest;
      account.passwordVersion++;
    }
    account.totalKb = toNumber(row.total_kb);
    account.usedKbAtFetch = toNumber(row.used_kb);
    account.localBytes = this.#unwritten(account.meterKey);
    account.blocked = isBannedNow(
      { banned: row.banned as boolean | null, banExpires: row.ban_expires as Date | string | null },
      now,
    );
    account.authorizedIps = Array.isArray(row.authorized_ips) ? row.authorized_ips.map(String) : [];
    account.authorizedIpsOnly = row.authorized_ips_only === true;
    account.recordDomains = row.record_domains !== false;
    account.paused = row.paused === true;
    account.countries = Array.isArray(row.countries) ? row.countries.map(String) : [];
    account.maxConnections =
      row.max_connections === null || row.max_connections === undefined ? undefined : Number(row.max_connections);
    account.fetchedAt = now;
    if (existing && account !== existing) existing.gone = true;
    return account;
  }
}
