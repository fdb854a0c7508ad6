/// <reference path="../types/fastify-rate-limit-redis-store.d.ts" />
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
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

/**
 * @fastify/rate-limit's Redis store, under our prefix. Its own store names a limiter's keys after the route it guards,
 * and a limiter made with `createRateLimit` (sign-in, checkout) has none, so every key read
 * `<prefix>rate-limit:undefinedundefined-…`; here such a limiter's keys follow the prefix directly.
 */
function namedRedisStore(client: Redis, nameSpace: string) {
  return class NamedRedisStore extends RedisStore {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      super(params.continueExceeding ?? false, params.exponentialBackoff ?? false, client, nameSpace);
    }

    override child(routeOptions: Parameters<RedisStore['child']>[0]): RedisStore {
      // The package's types say route options; it passes its merged limiter options, with the route as `routeInfo`.
      const options = routeOptions as unknown as RouteStoreOptions;
      const { method, url } = options.routeInfo;
      const route = method && url ? `${method}${url}:` : '';
      return new RedisStore(options.continueExceeding, options.exponentialBackoff, client, `${this.key}${route}`);
    }
  };
}

/**
 * Where the rate-limit counters live: in Redis when REDIS_URL is set, so every instance behind a load balancer counts
 * the same attempts; otherwise in this process's memory. While Redis is unreachable the limits let requests through
 * (sign-in and checkout keep working) and the outage is logged every 30 seconds; the client keeps reconnecting.
 */
export async function createRateLimitStore(redis: Config['redis'], log: FastifyBaseLogger): Promise<RateLimitStore> {
  if (!redis) return { pluginOptions: { global: false }, client: undefined, close: async () => {} };

  const client = new Redis(redis.url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    // A request never waits for Redis to come back: its command fails at once and the limit is skipped.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  let lastLogged = 0;
  client.on('error', (error: Error) => {
    if (Date.now() - lastLogged < UNREACHABLE_LOG_INTERVAL_MS) return;
    lastLogged = Date.now();
    log.error({ err: error }, 'Redis (the rate-limit store) is unreachable; limits are not applied until it is back');
  });
  try {
    await client.connect();
  } catch {
    // Logged above; the client reconnects on its own.
  }
  return {
    pluginOptions: {
      global: false,
      store: namedRedisStore(client, `${redis.keyPrefix}rate-limit:`),
      skipOnError: true,
    },
    client,
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
