import { featureListSchema, pricingResponseSchema } from '@storefront/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { shortLivedCache } from '../../lib/short-lived-cache.ts';
import { getPricing } from './get-pricing.ts';
import { listFeatures } from './list-features.ts';

export const catalogueRoutes: FastifyPluginAsyncZod<{ db: Db; pricingCacheMs: number }> = async (
  app,
  { db, pricingCacheMs },
) => {
  // Public and hit by every landing visit: stock may be up to a second old here; checkout checks it for real.
  const pricing = shortLivedCache(pricingCacheMs, () => getPricing(db));

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
      const plans = await pricing.get();
      reply.header('cache-control', 'no-store');
      return { success: true, plans, message: 'Pricing retrieved' };
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
      return listFeatures(db);
    },
  );
};
