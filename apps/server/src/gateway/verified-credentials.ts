import { hash, randomBytes } from 'node:crypto';
import type { ResidentialTargeting } from '@storefront/contract';
import { LRUCache } from 'lru-cache';
import { type GatewayAccount, mustStop } from './accounts.ts';

/** What a verified Proxy-Authorization header or SOCKS username and password proved: the account, as of its password. */
interface Verified {
  account: GatewayAccount;
  passwordVersion: number;
  targeting: ResidentialTargeting | undefined;
}

/** As many as the account cache holds usernames: a customer's lines each have their own session, so their own entry. */
const MAX_VERIFIED = { maxSize: 100_000, sizeCalculation: () => 1 };

/**
 * Credentials that proved an account, so a new connection with them is not decoded, read nor hashed again. Keyed by a
 * hash of a secret of this process and the credentials, so that nothing kept reveals a password; trusted only while the
 * account's own read is fresh and shows the same password, so no change to the account outlives what the account cache
 * knows.
 */
export class VerifiedCredentials {
  /**
   * SHA-256 of this secret and the credentials, in one call: an HMAC object per new connection costs several times as
   * much, and what HMAC adds (no length extension) matters for a code an attacker sees, which these keys never are.
   */
  readonly #secret = randomBytes(32).toString('base64');
  readonly #cacheMs: number;
  readonly #entries: LRUCache<string, Verified> | undefined;

  constructor(cacheMs: number) {
    this.#cacheMs = cacheMs;
    // With a cache time of 0 every request reads its account: nothing would stay fresh long enough to reuse.
    this.#entries = cacheMs > 0 ? new LRUCache({ ...MAX_VERIFIED, ttl: cacheMs }) : undefined;
  }

  /** The cache key of an HTTP request's Proxy-Authorization header, or of SOCKS credentials (never alike). */
  keyOf(given: { authorization: string } | { username: string; password: string }): string | undefined {
    if (this.#entries === undefined) return undefined;
    const value =
      'authorization' in given
        ? `h${given.authorization}`
        : `s${given.username.length}:${given.username}:${given.password}`;
    return hash('sha256', `${this.#secret}${value}`, 'base64');
  }

  /** The account the credentials proved, while its read is fresh and it still has that password; else forgotten. */
  get(key: string): { account: GatewayAccount; targeting: ResidentialTargeting | undefined } | undefined {
    const entry = this.#entries?.get(key);
    if (entry === undefined) return undefined;
    const { account } = entry;
    if (
      account.passwordVersion !== entry.passwordVersion ||
      mustStop(account) ||
      Date.now() - account.fetchedAt >= this.#cacheMs
    ) {
      this.#entries?.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Remembers credentials whose password was just checked right (the only way in). */
  set(key: string, account: GatewayAccount, targeting: ResidentialTargeting | undefined): void {
    this.#entries?.set(key, { account, passwordVersion: account.passwordVersion, targeting });
  }

  delete(key: string): void {
    this.#entries?.delete(key);
  }

  get size(): number {
    return this.#entries?.size ?? 0;
  }
}
