import { featureListSchema, type PricingResponse, pricingResponseSchema } from '@storefront/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { shortLivedCache } from '../../lib/short-lived-cache.ts';
import { getPricing } from './get-pricing.ts';
import { listFeatures } from './list-features.ts';

/**
 * The answer of `GET /api/pricing`, shared with the landing page's server rendering. Public and read by every
 * landing visit: stock may be up to `ttlMs` old here; checkout checks it for real.
 */
export function createPricingReader(db: Db, ttlMs: number): () => Promise<PricingResponse> {
  const plans = shortLivedCache(ttlMs, () => getPricing({ db }));
  return async () => ({ success: true, plans: await plans.get(), message: 'Pricing retrieved' });
}

export const catalogueRoutes: FastifyPluginAsyncZod<{ db: Db; pricing: () => Promise<PricingResponse> }> = async (
  app,
  { db, pricing },
) => {
  app.get(
    '/pricing',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Plans with unit price (US dollars) and live stock; no sign-in needed',
        response: { 200: pricingResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return pricing();
    },
  );

  app.get(
    '/features',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Which products can be bought (one flag per product id)',
        response: { 200: featureListSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return listFeatures({ db });
    },
  );
};
