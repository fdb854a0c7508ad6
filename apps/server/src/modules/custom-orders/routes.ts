import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { routeOf } from '../../lib/route.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { IP_LIST_BODY_LIMIT } from '../../plugins/json-body.ts';
import { actorOf } from '../auth/guards.ts';
import { createCustomCheckout } from './create-custom-checkout.ts';
import { lookUpUser } from './custom-orders.ts';
import { findCustomers } from './find-customers.ts';
import { fulfilCustomOrder } from './fulfil-custom-order.ts';

/**
 * Custom PK1 orders: finding the customer, the checkout link and fulfilment: the administrator's console API (spec section 7). Registered in the admin context (modules/admin/admin-api.ts),
 * whose own hook lets only administrators through (401 for a visitor, 403 for a customer).
 */
export const customOrderAdminRoutes: FastifyPluginAsync<{
  db: Db;
  brand: Branding;
  provider: PaymentProvider;
  currency: string;
}> = async (app, { db, brand, provider, currency }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({
    ...routeOf(endpoints.findCustomers),
    handler: async (request) => findCustomers({ db, query: request.query.q }),
  });

  api.route({
    ...routeOf(endpoints.lookUpCustomer),
    handler: async (request) => lookUpUser({ db, email: request.query.email }),
  });

  api.route({
    ...routeOf(endpoints.createCustomCheckout),
    handler: async (request) =>
      createCustomCheckout({
        db,
        provider,
        appUrl: brand.appUrl,
        currency,
        actor: actorOf(request),
        userId: request.body.userId,
        quantity: request.body.quantity,
        coupon: request.body.coupon,
      }),
  });

  api.route({
    ...routeOf(endpoints.fulfilCustomOrder),
    bodyLimit: IP_LIST_BODY_LIMIT,
    handler: async (request) =>
      fulfilCustomOrder({
        db,
        brand,
        actor: actorOf(request),
        userId: request.body.userId,
        orderId: request.body.orderId,
        lines: request.body.ips,
      }),
  });
};
