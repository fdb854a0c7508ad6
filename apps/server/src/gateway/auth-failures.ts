import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { GatewayConfig } from './config.ts';

/**
 * Sources remembered in this process at once (their windows, or what Redis said of them); the least recent go first.
 * A size of one per entry, not lru-cache's `max`, which would allocate all 100,000 slots at start.
 */
const MAX_TRACKED = { maxSize: 100_000, sizeCalculation: () => 1 };

// Failures are counted per source as every limit counts a client (an IPv6 address by its /64).
export { sourceKey } from '../lib/ip-address.ts';

interface Window {
  failures: number;
  endsAt: number;
}

/**
 * Failed proxy authentications per source: a source may fail `perIp` times in a fixed window of
 * `windowMs` that starts at its first failure; from then on it is refused, good credentials too, until the window ends,
 * before any account is read. One warning line is written when a source reaches the limit, so once per window.
 *
 * With Redis (REDIS_URL, through the shop's rate-limit connection) every gateway counts together: the count is an INCR on
 * a key that expires with the window; what Redis says of a source that is not refused is reused for `checkMs` (as
 * accounts are), so a refusal reached on another gateway applies here within GATEWAY_CACHE_MS, and a request costs no
 * round trip. While Redis cannot be reached each gateway counts on its own in memory, rather than not at all.
 */
export class AuthFailureLimit {
  readonly #perIp: number;
  readonly #windowMs: number;
  readonly #checkMs: number;
  readonly #log: FastifyBaseLogger;
  readonly #redis: { client: Redis; keyPrefix: string } | undefined;
  readonly #close: () => Promise<void>;
  /** The windows counted here: all of them without Redis, and the fallback while it is unreachable. */
  readonly #local = new LRUCache<string, Window>(MAX_TRACKED);
  /** With Redis: when a source is refused until, and when Redis was last asked about it. */
  readonly #seen = new LRUCache<string, { refusedUntil: number; checkedAt: number }>(MAX_TRACKED);

  private constructor(options: {
    limits: GatewayConfig['authFailures'];
    checkMs: number;
    log: FastifyBaseLogger;
    redis: { client: Redis; keyPrefix: string } | undefined;
    close: () => Promise<void>;
  }) {
    this.#perIp = options.limits.perIp;
    this.#windowMs = options.limits.windowMs;
    this.#checkMs = options.checkMs;
    this.#log = options.log;
    this.#redis = options.redis;
    this.#close = options.close;
  }

  static async create(limits: GatewayConfig['authFailures'], checkMs: number, log: FastifyBaseLogger) {
    if (!limits.redis) return new AuthFailureLimit({ limits, checkMs, log, redis: undefined, close: async () => {} });
    // Loaded only with Redis: a gateway of its own without it does not carry the Redis client.
    const { createRateLimitStore } = await import('../lib/rate-limit-store.ts');
    const store = await createRateLimitStore(limits.redis, log);
    const redis = store.client ? { client: store.client, keyPrefix: limits.redis.keyPrefix } : undefined;
    return new AuthFailureLimit({ limits, checkMs, log, redis, close: store.close });
  }

  /** Milliseconds the source is still refused for, or 0. */
  async refusedFor(source: string): Promise<number> {
    const now = Date.now();
    const local = this.#localRefusedFor(source, now);
    if (local > 0 || !this.#redis) return local;
    const seen = this.#seen.get(source);
    if (seen && seen.refusedUntil > now) return seen.refusedUntil - now;
    if (seen && now - seen.checkedAt < this.#checkMs) return 0;
    try {
      const [failures, ttl] = await this.#run(source, (multi, key) => multi.get(key).pttl(key));
      const refusedMs = Number(failures) >= this.#perIp && Number(ttl) > 0 ? Number(ttl) : 0;
      this.#seen.set(source, { refusedUntil: now + refusedMs, checkedAt: now });
      return refusedMs;
    } catch {
      // Logged by the connection (every 30 s); the memory count stands in meanwhile.
      return local;
    }
  }

  /** Counts one failed authentication; the milliseconds the source is now refused for, or 0 while under the limit. */
  async fail(source: string): Promise<number> {
    const now = Date.now();
    if (this.#redis) {
      try {
        const [, failures, ttl] = await this.#run(source, (multi, key) =>
          multi.set(key, 0, 'PX', this.#windowMs, 'NX').incr(key).pttl(key),
        );
        return this.#counted(source, Number(failures), Math.max(0, Number(ttl)), now);
      } catch {
        // Counted in memory below.
      }
    }
    let window = this.#local.get(source);
    if (!window || window.endsAt <= now) {
      window = { failures: 0, endsAt: now + this.#windowMs };
      this.#local.set(source, window);
    }
    window.failures++;
    return this.#counted(source, window.failures, window.endsAt - now, now);
  }

  close(): Promise<void> {
    return this.#close();
  }

  #localRefusedFor(source: string, now: number): number {
    const window = this.#local.get(source);
    return window && window.endsAt > now && window.failures >= this.#perIp ? window.endsAt - now : 0;
  }

  #counted(source: string, failures: number, leftMs: number, now: number): number {
    if (failures < this.#perIp) return 0;
    this.#seen.set(source, { refusedUntil: now + leftMs, checkedAt: now });
    // Only one failure reaches the limit exactly (INCR is atomic): one line per source and window, for all gateways.
    if (failures === this.#perIp) {
      this.#log.warn(
        { source, failures, windowMinutes: this.#windowMs / 60_000, refusedSeconds: Math.ceil(leftMs / 1000) },
        'gateway: too many failed proxy authentications from one address; refused until its window ends',
      );
    }
    return leftMs;
  }

  /** One MULTI on the source's key; the replies in order, or a throw if any failed. */
  async #run(
    source: string,
    build: (multi: ReturnType<Redis['multi']>, key: string) => ReturnType<Redis['multi']>,
  ): Promise<unknown[]> {
    const redis = this.#redis;
    if (!redis) throw new Error('no Redis');
    const replies = await build(redis.client.multi(), `${redis.keyPrefix}gateway-auth-failures:${source}`).exec();
    if (!replies) throw new Error('the transaction was discarded');
    return replies.map(([error, reply]) => {
      if (error) throw error;
      return reply;
    });
  }
}
