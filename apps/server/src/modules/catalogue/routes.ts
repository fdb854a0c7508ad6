import { endpoints, type PricingResponse, pricingResponseSchema } from '@storefront/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.ts';
import { preparedJson, sendJson } from '../../lib/prepared-json.ts';
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
  // The same answer object while it is fresh, so that what is derived from it (its bytes, its ETag) is made once;
  // concurrent readers of a stale answer share one read.
  const kept = new LRUCache<'pricing', PricingResponse>({ max: 1, ttl: ttlMs, fetchMethod: read });
  return async () => (await kept.fetch('pricing')) ?? read();
}

/** The pricing answer as bytes and their ETag, made once per answer the pricing reader gives (it keeps one a second). */
const preparedPricing = preparedJson(pricingResponseSchema, (answer: PricingResponse) => answer);

export const catalogueRoutes: FastifyPluginAsyncZod<{ db: Db; pricing: () => Promise<PricingResponse> }> = async (
  app,
  { db, pricing },
) => {
  app.route({
    ...routeOf(endpoints.getPricing),
    // About 300 bytes, below the compression threshold: the compression hook is left off this route.
    compress: false,
    handler: async (request, reply: FastifyReply) => {
      // The answer changes only with prices or stock: it is serialised once per change, with an ETag, and a client that
      // already holds it gets 304 without a body. (The bytes were checked against the schema when they were made.)
      const prepared = preparedPricing(await pricing());
      reply.header('cache-control', 'no-cache').header('etag', prepared.etag);
      if (request.headers['if-none-match'] === prepared.etag) return reply.code(304).send();
      return sendJson(reply, prepared);
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
