import { adminAlertsSchema } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { listOpenAlerts } from './list-alerts.ts';

/**
 * The open alerts: the administrator's console API (spec section 7). Registered in the admin context (modules/admin/admin-api.ts),
 * whose own hook lets only administrators through (401 for a visitor, 403 for a customer).
 */
export const alertAdminRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/admin/alerts',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The open alerts (paid orders waiting, low stock, the periodic job stuck, e-mails failing), oldest first by kind',
        response: { 200: adminAlertsSchema },
      },
    },
    async () => listOpenAlerts({ db }),
  );
};
