import { createHash, timingSafeEqual } from 'node:crypto';
import { BYTES_PER_KB } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { residentialAccounts, users } from '../db/schema.ts';
import { isBannedNow } from '../modules/users/ban.ts';

/** A residential account as the gateway sees it; one object per username, refreshed in place. */
export interface GatewayAccount {
  userId: string;
  username: string;
  password: string;
  totalKb: number;
  /** used_kb when the row was last read. */
  usedKbAtFetch: number;
  /** Bytes this gateway metered since that read that the read did not include (not yet written, or written after). */
  localBytes: number;
  blocked: boolean;
  fetchedAt: number;
}

/** What is left to carry, in bytes, as far as this gateway knows (other gateways' use arrives with the next read). */
export function remainingBytes(account: GatewayAccount): number {
  return (account.totalKb - account.usedKbAtFetch) * BYTES_PER_KB - account.localBytes;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares in constant time, whatever the lengths. */
export function passwordMatches(account: GatewayAccount, password: string): boolean {
  return timingSafeEqual(digest(account.password), digest(password));
}

const MAX_CACHED = 100_000;

/**
 * Credentials and remaining data, read once per `cacheMs` per username (a request costs no database round trip), so a
 * purchase, a block or another gateway's use takes effect within that time. Unknown usernames are remembered too, so a
 * stream of bad credentials does not become a stream of queries. Concurrent requests for one username share one read.
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

  async #read(username: string): Promise<GatewayAccount | undefined> {
    const [row] = await this.#db
      .select({
        userId: residentialAccounts.userId,
        password: residentialAccounts.password,
        totalKb: residentialAccounts.totalKb,
        usedKb: residentialAccounts.usedKb,
        banned: users.banned,
        banExpires: users.banExpires,
      })
      .from(residentialAccounts)
      .innerJoin(users, eq(users.id, residentialAccounts.userId))
      .where(eq(residentialAccounts.username, username));
    if (this.#accounts.size >= MAX_CACHED) this.#evictOldest();
    const now = Date.now();
    if (!row) {
      this.#accounts.set(username, { missing: true, fetchedAt: now });
      return undefined;
    }
    const blocked = isBannedNow(row, now);
    const existing = this.#accounts.get(username);
    const account: GatewayAccount =
      existing && !('missing' in existing)
        ? existing
        : {
            userId: row.userId,
            username,
            password: '',
            totalKb: 0,
            usedKbAtFetch: 0,
            localBytes: 0,
            blocked,
            fetchedAt: 0,
          };
    account.password = row.password;
    account.totalKb = row.totalKb;
    account.usedKbAtFetch = row.usedKb;
    account.localBytes = this.#unwritten(row.userId);
    account.blocked = blocked;
    account.fetchedAt = now;
    this.#accounts.set(username, account);
    return account;
  }

  #evictOldest() {
    const oldest = this.#accounts.keys().next();
    if (!oldest.done) this.#accounts.delete(oldest.value);
  }
}
