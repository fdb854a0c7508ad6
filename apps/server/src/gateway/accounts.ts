import { createHash, timingSafeEqual } from 'node:crypto';
import { BYTES_PER_KB } from '@storefront/contract';
import { eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { residentialAccounts, users } from '../db/schema.ts';
import { isBannedNow } from '../modules/users/ban.ts';

/** A residential account as the gateway sees it; one object per username, refreshed in place. */
export interface GatewayAccount {
  userId: string;
  username: string;
  password: string;
  /** Bumped whenever a read finds another password: a connection opened with an older one is cut. */
  passwordVersion: number;
  totalKb: number;
  /** used_kb when the row was last read. */
  usedKbAtFetch: number;
  /** Bytes this gateway metered since that read that the read did not include (not yet written, or written after). */
  localBytes: number;
  blocked: boolean;
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

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares in constant time, whatever the lengths. */
export function passwordMatches(account: GatewayAccount, password: string): boolean {
  return timingSafeEqual(digest(account.password), digest(password));
}

const MAX_CACHED = 100_000;
/** Usernames per query when the accounts of open connections are read again. */
const REFRESH_BATCH = 500;

type AccountRow = {
  username: string;
  userId: string;
  password: string;
  totalKb: number;
  usedKb: number;
  banned: boolean | null;
  banExpires: Date | null;
};

/**
 * Credentials and remaining data, read once per `cacheMs` per username (a request costs no database round trip), so a
 * purchase, a block or another gateway's use takes effect within that time. Unknown usernames are remembered too, so a
 * stream of bad credentials does not become a stream of queries. Concurrent requests for one username share one read.
 * The accounts of open connections are read again by `refresh` (in batches), so that a ban, a block, a new password or
 * data used up elsewhere reaches connections that make no new request (issue 34, item 3).
 */
export class AccountCache {
  readonly #db: Db;
  readonly #cacheMs: number;
  /** Bytes metered but not yet written, per user id (the meter's), to carry over into a fresh read. */
  readonly #unwritten: (userId: string) => number;
  readonly #accounts = new Map<string, GatewayAccount | { missing: true; fetchedAt: number }>();
  readonly #reading = new Map<string, Promise<GatewayAccount | undefined>>();

  constructor(options: { db: Db; cacheMs: number; unwritten: (userId: string) => number }) {
    this.#db = options.db;
    this.#cacheMs = options.cacheMs;
    this.#unwritten = options.unwritten;
  }

  async get(username: string): Promise<GatewayAccount | undefined> {
    const cached = this.#accounts.get(username);
    if (cached && Date.now() - cached.fetchedAt < this.#cacheMs) return 'missing' in cached ? undefined : cached;
    const reading = this.#reading.get(username);
    if (reading) return reading;
    const read = this.#read(username).finally(() => this.#reading.delete(username));
    this.#reading.set(username, read);
    return read;
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
      const rows = await this.#select(inArray(residentialAccounts.username, batch));
      const now = Date.now();
      const found = new Map(rows.map((row) => [row.username, row]));
      for (const username of batch) this.#apply(username, found.get(username), now, stale.get(username));
    }
  }

  async #read(username: string): Promise<GatewayAccount | undefined> {
    const [row] = await this.#select(eq(residentialAccounts.username, username));
    return this.#apply(username, row, Date.now());
  }

  #select(where: SQL) {
    return this.#db
      .select({
        username: residentialAccounts.username,
        userId: residentialAccounts.userId,
        password: residentialAccounts.password,
        totalKb: residentialAccounts.totalKb,
        usedKb: residentialAccounts.usedKb,
        banned: users.banned,
        banExpires: users.banExpires,
      })
      .from(residentialAccounts)
      .innerJoin(users, eq(users.id, residentialAccounts.userId))
      .where(where);
  }

  /** Puts what a read found into the cache, updating `known` (or the cached object) in place. */
  #apply(username: string, row: AccountRow | undefined, now: number, known?: GatewayAccount) {
    const cached = this.#accounts.get(username);
    const existing = known ?? (cached && !('missing' in cached) ? cached : undefined);
    if (!cached && this.#accounts.size >= MAX_CACHED) this.#evictOldest();
    if (!row) {
      if (existing) existing.gone = true;
      this.#accounts.set(username, { missing: true, fetchedAt: now });
      return undefined;
    }
    const account: GatewayAccount =
      existing && !existing.gone && existing.userId === row.userId
        ? existing
        : {
            userId: row.userId,
            username,
            password: row.password,
            passwordVersion: 0,
            totalKb: 0,
            usedKbAtFetch: 0,
            localBytes: 0,
            blocked: false,
            gone: false,
            fetchedAt: 0,
          };
    if (account.password !== row.password) {
      account.password = row.password;
      account.passwordVersion++;
    }
    account.totalKb = row.totalKb;
    account.usedKbAtFetch = row.usedKb;
    account.localBytes = this.#unwritten(row.userId);
    account.blocked = isBannedNow(row, now);
    account.fetchedAt = now;
    if (existing && account !== existing) existing.gone = true;
    this.#accounts.set(username, account);
    return account;
  }

  #evictOldest() {
    const oldest = this.#accounts.keys().next();
    if (!oldest.done) this.#accounts.delete(oldest.value);
  }
}
