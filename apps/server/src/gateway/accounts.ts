import { hash, timingSafeEqual } from 'node:crypto';
import { BYTES_PER_KB } from '@storefront/contract';
import { LRUCache } from 'lru-cache';
import { isBannedNow } from '../lib/ban.ts';
import { type SqlClient, toNumber } from './sql.ts';

/** A residential account as the gateway sees it; one object per username, refreshed in place. */
export interface GatewayAccount {
  userId: string;
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
  return account.gone || account.blocked || remainingBytes(account) <= 0;
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
  coalesce(p.authorized_ips_only, false) as authorized_ips_only,
  array(select a.ip from authorized_ips a where a.user_id = ra.user_id order by a.ip) as authorized_ips
  from residential_accounts ra
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
  /** Bytes metered but not yet written, per user id (the meter's), to carry over into a fresh read. */
  readonly #unwritten: (userId: string) => number;
  readonly #accounts: LRUCache<string, GatewayAccount | Missing>;
  /** Authorised IP → the username of the account it belongs to (or none). */
  readonly #ips: LRUCache<string, { username: string | undefined }>;

  constructor(options: { sql: SqlClient; cacheMs: number; unwritten: (userId: string) => number }) {
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
        const { rows } = await this.#sql.query(`select ${ACCOUNT_COLUMNS} where ra.username = $1`, [username]);
        return this.#apply(username, rows[0], Date.now(), before && !('missing' in before) ? before : undefined);
      },
    });
    this.#ips = new LRUCache({
      ...MAX_CACHED,
      ttl: options.cacheMs,
      noDeleteOnFetchRejection: true,
      fetchMethod: async (ip) => {
        const { rows } = await this.#sql.query(
          `select ra.username from authorized_ips a join residential_accounts ra on ra.user_id = a.user_id where a.ip = $1`,
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
      const { rows } = await this.#sql.query(`select ${ACCOUNT_COLUMNS} where ra.username = any($1::text[])`, [batch]);
      const now = Date.now();
      const found = new Map(rows.map((row) => [String(row.username), row]));
      for (const username of batch) {
        const cached = this.#accounts.peek(username, { allowStale: true });
        const known = stale.get(username) ?? (cached && !('missing' in cached) ? cached : undefined);
        this.#accounts.set(username, this.#apply(username, found.get(username), now, known));
      }
    }
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
    const password = String(row.password);
    const account: GatewayAccount =
      existing && !existing.gone && existing.userId === userId
        ? existing
        : {
            userId,
            username,
            passwordDigest: digest(password),
            passwordVersion: 0,
            totalKb: 0,
            usedKbAtFetch: 0,
            localBytes: 0,
            blocked: false,
            authorizedIps: [],
            authorizedIpsOnly: false,
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
    account.localBytes = this.#unwritten(userId);
    account.blocked = isBannedNow(
      { banned: row.banned as boolean | null, banExpires: row.ban_expires as Date | string | null },
      now,
    );
    account.authorizedIps = Array.isArray(row.authorized_ips) ? row.authorized_ips.map(String) : [];
    account.authorizedIpsOnly = row.authorized_ips_only === true;
    account.fetchedAt = now;
    if (existing && account !== existing) existing.gone = true;
    return account;
  }
}
