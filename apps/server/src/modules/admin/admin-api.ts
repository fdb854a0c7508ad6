import { endpoints, routeKeyOf } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { alertAdminRoutes } from '../alerts/routes.ts';
import { auditAdminRoutes } from '../audit/routes.ts';
import type { Guards } from '../auth/guards.ts';
import { featureAdminRoutes } from '../catalogue/admin-routes.ts';
import { couponAdminRoutes } from '../coupons/admin-routes.ts';
import { customOrderAdminRoutes } from '../custom-orders/routes.ts';
import { inventoryAdminRoutes } from '../inventory/routes.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { replacementAdminRoutes } from '../replacements/admin-routes.ts';
import { sandboxAdminRoutes } from '../sandbox/routes.ts';

/** Every route under it is for administrators only, and declared in the admin context below. */
export const ADMIN_PREFIX = '/api/admin/';

/** The changes that can end an alert (stock arrives, a pool is switched off, an order is fulfilled), by routeKeyOf. */
const CHANGES_ALERTS = new Set(
  [
    endpoints.saveFeatureFlags,
    endpoints.setResidentialLimit,
    endpoints.uploadIps,
    endpoints.swapSubnet,
    endpoints.fulfilCustomOrder,
  ].map(routeKeyOf),
);

export interface AdminApiOptions {
  db: Db;
  guards: Guards;
  brand: Branding;
  provider: PaymentProvider;
  currency: string;
  /** Sends the e-mails a change queued (orders delivered from new stock, fulfilments), in the background. */
  flushEmails: () => void;
  /** Checks the alerts in the background: new stock resolves the waiting orders' and the low-stock alerts at once. */
  checkAlerts?: () => void;
  /** With the sandbox: its clock, for administrators. */
  sandbox?: { jobs: JobRunner };
  /** Filled with `<method> <url>` of every route declared here (app.ts checks that no admin route is declared elsewhere). */
  declared: Set<string>;
}

/**
 * The administrator's console API, /api/admin (spec section 7, ARCHITECTURE section 4): one encapsulated context whose
 * onRequest hook lets only administrators through (401 for a visitor, 403 for a customer) before anything else of the
 * request runs. Every route declared in it must live under /api/admin, and every route under /api/admin is declared
 * in it (the authorisation matrix in proof/ checks each one as a visitor and as a customer).
 */
export const adminApi: FastifyPluginAsync<AdminApiOptions> = async (
  admin,
  { db, guards, brand, provider, currency, flushEmails, checkAlerts, sandbox, declared },
) => {
  admin.addHook('onRequest', guards.requireAdmin);
  admin.addHook('onRoute', (route) => {
    if (!route.url.startsWith(ADMIN_PREFIX)) throw new Error(`${route.url} is declared for administrators only`);
    for (const method of [route.method].flat()) declared.add(`${method} ${route.url}`);
  });
  admin.addHook('onSend', privateNoStore);
  // A write that delivered orders has queued their e-mails: they go out now rather than at the next periodic run.
  admin.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode === 200) {
      flushEmails();
      if (CHANGES_ALERTS.has(`${request.method} ${request.routeOptions.url}`)) checkAlerts?.();
    }
  });
  await admin.register(alertAdminRoutes, { db });
  await admin.register(featureAdminRoutes, { db });
  await admin.register(inventoryAdminRoutes, { db, brand, currency });
  await admin.register(replacementAdminRoutes, { db });
  await admin.register(customOrderAdminRoutes, { db, brand, provider, currency });
  await admin.register(couponAdminRoutes, { db, provider });
  await admin.register(auditAdminRoutes, { db });
  if (sandbox) await admin.register(sandboxAdminRoutes, { db, jobs: sandbox.jobs });
};
