import etag from '@fastify/etag';
import { endpoints, type PricingResponse } from '@storefront/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.ts';
import { routeOf } from '../../lib/route.ts';
import { getPricing } from './get-pricing.ts';
import { listFeatures } from './list-features.ts';

/**
 * The answer of `GET /api/pricing`, shared with the landing page's server rendering. Public and read by every
 * landing visit: stock may be up to `ttlMs` old here (0: read every time); checkout checks it for real.
 */
export function createPricingReader(db: Db, ttlMs: number): () => Promise<PricingResponse> {
  const read = async (): Promise<PricingResponse> => ({
    success: true,
    plans: await getPricing({ db }),
    message: 'Pricing retrieved',
  });
  if (ttlMs === 0) return read;
  // Concurrent readers of a stale answer share one read.
  const kept = new LRUCache<'pricing', PricingResponse>({ max: 1, ttl: ttlMs, fetchMethod: read });
  return async () => (await kept.fetch('pricing')) ?? read();
}

export const catalogueRoutes: FastifyPluginAsyncZod<{ db: Db; pricing: () => Promise<PricingResponse> }> = async (
  app,
  { db, pricing },
) => {
  // The pricing changes only with prices or stock: a client that holds the current answer gets 304 without a body.
  await app.register(etag);
  app.route({
    ...routeOf(endpoints.getPricing),
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return pricing();
    },
  });

  app.route({
    ...routeOf(endpoints.listFeatures),
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return listFeatures({ db });
    },
  });
};
