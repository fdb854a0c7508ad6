import { endpoints, IP_POOLS } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { routeOf } from '../../lib/route.ts';
import { replacementStats } from './replacement-stats.ts';

/**
 * Customers' replacements beside the static pools' inventory: registered in the admin context
 * (modules/admin/admin-api.ts), whose own hook lets only administrators through.
 */
export const replacementAdminRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...routeOf(endpoints.listReplacementStats),
    handler: async (request) =>
      replacementStats({ db, productId: IP_POOLS[request.params.pool], after: request.query.after }),
  });
};
