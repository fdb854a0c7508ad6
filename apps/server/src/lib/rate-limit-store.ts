/// <reference path="../types/fastify-rate-limit-redis-store.d.ts" />
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore, { type RouteStoreOptions } from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';

export interface RateLimitStore {
  /** Options for each registration of @fastify/rate-limit (sign-in, checkout). */
  pluginOptions: RateLimitPluginOptions;
  /** The Redis connection, for counters kept outside @fastify/rate-limit (the gateway's failed authentications). */
  client: Redis | undefined;
  close(): Promise<void>;
}

const UNREACHABLE_LOG_INTERVAL_MS = 30_000;

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * @fastify/rate-limit's Redis store under our prefix, counting in this process's memory whenever Redis cannot answer,
 * so that no limit opens while Redis is away. Its own store names a limiter's keys after the route it guards, and a
 * limiter made with `createRateLimit` (sign-in, checkout) has none, so every key read
 * `<prefix>rate-limit:undefinedundefined-…`; here such a limiter's keys follow the prefix directly.
 */
function fallbackStore(client: Redis, nameSpace: string, onFallback: (error: Error) => void) {
  class FallbackStore {
    readonly #redis: RedisStore;
    readonly #memory: LocalStore;
    constructor(redis: RedisStore, memory: LocalStore) {
      this.#redis = redis;
      this.#memory = memory;
    }

    #either(operation: 'incr' | 'read', key: string, callback: Callback, timeWindow: number, max: number) {
      if (client.status !== 'ready') {
        onFallback(new Error(`connection ${client.status}`));
        this.#memory[operation](key, callback, timeWindow, max);
        return;
      }
      this.#redis[operation](
        key,
        (error, result) => {
          if (!error) return callback(null, result);
          onFallback(error);
          this.#memory[operation](key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number) {
      this.#either('incr', key, callback, timeWindow, max);
    }

    read(key: string, callback: Callback, timeWindow: number, max: number) {
      this.#either('read', key, callback, timeWindow, max);
    }

    child(routeOptions: Parameters<RedisStore['child']>[0]) {
      // The package's types say route options; it passes its merged limiter options, with the route as `routeInfo`.
      const options = routeOptions as unknown as RouteStoreOptions;
      const { method, url } = options.routeInfo;
      const route = method && url ? `${method}${url}:` : '';
      return new FallbackStore(
        new RedisStore(options.continueExceeding, options.exponentialBackoff, client, `${nameSpace}${route}`),
        new LocalStore(options.continueExceeding, options.exponentialBackoff),
      );
    }
  }
  // The plugin constructs its store class with the limiter's options; each limiter then takes a child.
  return class extends FallbackStore {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const { continueExceeding = false, exponentialBackoff = false } = params;
      super(
        new RedisStore(continueExceeding, exponentialBackoff, client, nameSpace),
        new LocalStore(continueExceeding, exponentialBackoff),
      );
    }
  };
}

/**
 * Where the rate-limit counters live: in Redis when REDIS_URL is set, so every instance behind a load balancer counts
 * the same attempts; otherwise in this process's memory. While Redis is unreachable each instance counts in its own
 * memory (every limit still holds, per instance), says so in the log every 30 seconds, and readiness shows Redis down;
 * the client keeps reconnecting.
 */
export async function createRateLimitStore(redis: Config['redis'], log: FastifyBaseLogger): Promise<RateLimitStore> {
  if (!redis) return { pluginOptions: { global: false }, client: undefined, close: async () => {} };

  const client = new Redis(redis.url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    // A request never waits for Redis to come back: its command fails at once and is counted in memory instead.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  let lastLogged = 0;
  const unreachable = (error: Error) => {
    if (Date.now() - lastLogged < UNREACHABLE_LOG_INTERVAL_MS) return;
    lastLogged = Date.now();
    log.error(
      { err: error },
      `Redis at REDIS_URL (the rate-limit store) is unreachable; each instance counts the limits in its own memory until it is back`,
    );
  };
  client.on('error', unreachable);
  try {
    await client.connect();
  } catch {
    // Logged above; the client reconnects on its own.
  }
  return {
    pluginOptions: { global: false, store: fallbackStore(client, `${redis.keyPrefix}rate-limit:`, unreachable) },
    client,
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
