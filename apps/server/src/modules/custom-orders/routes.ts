import {
  adminUserLookupQuerySchema,
  adminUserLookupSchema,
  customCheckoutRequestSchema,
  customCheckoutResponseSchema,
  fulfilRequestSchema,
  fulfilResponseSchema,
} from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { actorOf } from '../auth/guards.ts';
import { createCustomCheckout } from './create-custom-checkout.ts';
import { lookUpUser } from './custom-orders.ts';
import { fulfilCustomOrder } from './fulfil-custom-order.ts';

/** Uploads and swaps carry up to a /16 of lines (65,536 of about 40 characters). */
const LARGE_BODY = 8 * 1_048_576;

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

  api.get(
    '/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Find a customer by e-mail (trimmed, any case), with their custom orders',
        querystring: adminUserLookupQuerySchema,
        response: { 200: adminUserLookupSchema },
      },
    },
    async (request) => lookUpUser({ db, email: request.query.email }),
  );

  api.post(
    '/admin/checkout/pk1/custom',
    {
      schema: {
        tags: ['admin'],
        summary: 'A custom PK1 order (1 to 1000 IPs) for a customer: answers the payment link the customer pays',
        body: customCheckoutRequestSchema,
        response: { 200: customCheckoutResponseSchema },
      },
    },
    async (request) =>
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
  );

  api.post(
    '/admin/orders/fulfill',
    {
      bodyLimit: LARGE_BODY,
      schema: {
        tags: ['admin'],
        summary:
          "Fulfil a paid custom order with exactly its quantity of proxies; answers the customer's custom orders",
        body: fulfilRequestSchema,
        response: { 200: fulfilResponseSchema },
      },
    },
    async (request) =>
      fulfilCustomOrder({
        db,
        brand,
        actor: actorOf(request),
        userId: request.body.userId,
        orderId: request.body.orderId,
        lines: request.body.ips,
      }),
  );
};
