/// <reference path="../types/fastify-rate-limit-redis-store.d.ts" />
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { GatewayConfig } from './config.ts';

/** Sources remembered in this process at once (their counts, or what Redis said of them); the least recent go first. */
const MAX_TRACKED = 100_000;

// Failures are counted per source as every limit counts a client (an IPv6 address by its /64).
export { sourceKey } from '../lib/ip-address.ts';

/**
 * A counter of @fastify/rate-limit's stores, the ones the HTTP limits count in: `incr` counts one in a fixed window that
 * starts at the first, `read` only looks; both answer the count and the milliseconds left in the window.
 */
type Counter = Pick<LocalStore, 'incr' | 'read'>;

/**
 * Failed proxy authentications per source, `perIp` in a window of `windowMs` from the first; past them the source is
 * refused before any account is read, so guessing costs no query. Counted in Redis when set so every gateway counts
 * together (in memory while it is away); Redis's answer is reused for `checkMs` so a request costs no round trip.
 */
export class AuthFailureLimit {
  readonly #perIp: number;
  readonly #windowMs: number;
  readonly #checkMs: number;
  readonly #log: FastifyBaseLogger;
  readonly #counter: Counter;
  /** Whether the count is shared with other gateways (Redis), hence worth remembering here for `checkMs`. */
  readonly #shared: boolean;
  readonly #close: () => Promise<void>;
  /** With Redis: when a source is refused until, and when Redis was last asked about it. */
  readonly #seen = new LRUCache<string, { refusedUntil: number; checkedAt: number }>({
    // A size of one per entry, not lru-cache's `max`, which would allocate all the slots at start.
    maxSize: MAX_TRACKED,
    sizeCalculation: () => 1,
  });

  private constructor(options: {
    limits: GatewayConfig['authFailures'];
    checkMs: number;
    log: FastifyBaseLogger;
    counter: Counter;
    shared: boolean;
    close: () => Promise<void>;
  }) {
    this.#perIp = options.limits.perIp;
    this.#windowMs = options.limits.windowMs;
    this.#checkMs = options.checkMs;
    this.#log = options.log;
    this.#counter = options.counter;
    this.#shared = options.shared;
    this.#close = options.close;
  }

  static async create(limits: GatewayConfig['authFailures'], checkMs: number, log: FastifyBaseLogger) {
    if (!limits.redis) {
      const counter = new LocalStore(false, false, MAX_TRACKED);
      return new AuthFailureLimit({ limits, checkMs, log, counter, shared: false, close: async () => {} });
    }
    // Loaded only with Redis: a gateway of its own without it does not carry the Redis client.
    const { createRateLimitStore } = await import('../lib/rate-limit-store.ts');
    const store = await createRateLimitStore(limits.redis, log);
    // The store's class as @fastify/rate-limit constructs it; the package's types leave out its `read`.
    const Store = store.pluginOptions.store as unknown as new (options: object) => Counter;
    const counter = new Store({ continueExceeding: false, exponentialBackoff: false });
    return new AuthFailureLimit({ limits, checkMs, log, counter, shared: true, close: store.close });
  }

  /** Milliseconds the source is still refused for, or 0. */
  async refusedFor(source: string): Promise<number> {
    const now = Date.now();
    const seen = this.#shared ? this.#seen.get(source) : undefined;
    if (seen && seen.refusedUntil > now) return seen.refusedUntil - now;
    if (seen && now - seen.checkedAt < this.#checkMs) return 0;
    const { current, ttl } = await this.#count('read', source);
    const refusedMs = current >= this.#perIp && ttl > 0 ? ttl : 0;
    if (this.#shared) this.#seen.set(source, { refusedUntil: now + refusedMs, checkedAt: now });
    return refusedMs;
  }

  /** Counts one failed authentication; the milliseconds the source is now refused for, or 0 while under the limit. */
  async fail(source: string): Promise<number> {
    const now = Date.now();
    const { current, ttl } = await this.#count('incr', source);
    return this.#counted(source, current, Math.max(0, ttl), now);
  }

  close(): Promise<void> {
    return this.#close();
  }

  #counted(source: string, failures: number, leftMs: number, now: number): number {
    if (failures < this.#perIp) return 0;
    if (this.#shared) this.#seen.set(source, { refusedUntil: now + leftMs, checkedAt: now });
    // Only one failure reaches the limit exactly (the count is atomic): one line per source and window, for all gateways.
    if (failures === this.#perIp) {
      this.#log.warn(
        { source, failures, windowMinutes: this.#windowMs / 60_000, refusedSeconds: Math.ceil(leftMs / 1000) },
        'gateway: too many failed proxy authentications from one address; refused until its window ends',
      );
    }
    return leftMs;
  }

  #count(operation: 'incr' | 'read', source: string): Promise<{ current: number; ttl: number }> {
    return new Promise((resolve, reject) => {
      this.#counter[operation](
        `gateway-auth-failures:${source}`,
        (error, result) => {
          if (error || !result) reject(error ?? new Error('the rate-limit store answered nothing'));
          else resolve(result);
        },
        this.#windowMs,
        this.#perIp,
      );
    });
  }
}
