import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { routeOf } from '../../lib/route.ts';
import { actorOf } from '../auth/guards.ts';
import { listFeatures } from './list-features.ts';
import { updateFeatures } from './update-features.ts';

/**
 * The feature flags: the administrator's console API (spec section 7). Registered in the admin context (modules/admin/admin-api.ts),
 * whose own hook lets only administrators through (401 for a visitor, 403 for a customer).
 */
export const featureAdminRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({ ...routeOf(endpoints.listFeatureFlags), handler: async () => listFeatures({ db }) });

  api.route({
    ...routeOf(endpoints.saveFeatureFlags),
    handler: async (request) => updateFeatures({ db, actor: actorOf(request), features: request.body }),
  });
};
