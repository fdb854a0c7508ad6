import {
  cancelOrderRequestSchema,
  dailyUsageSchema,
  orderHistorySchema,
  orderListSchema,
  orderUsageListSchema,
  processingOrderListSchema,
} from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { cancelOrder } from './cancel-order.ts';
import { listDailyUsage } from './daily-usage.ts';
import { listOrderHistory, listOrders, listOrderUsage, listProcessingOrders } from './list-orders.ts';

export interface OrderRoutesOptions {
  db: Db;
  guards: Guards;
  gatewayEndpoint: string;
  provider: PaymentProvider;
}

export const orderRoutes: FastifyPluginAsync<OrderRoutesOptions> = async (
  app,
  { db, guards, gatewayEndpoint, provider },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', guards.requireUser);
  api.addHook('onSend', privateNoStore);

  api.get(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: "The signed-in customer's orders, newest first",
        response: { 200: orderListSchema },
      },
    },
    async (request) => listOrders({ db, userId: signedInOf(request).user.id }),
  );

  api.get(
    '/orders/usage',
    {
      schema: {
        tags: ['orders'],
        summary: "The signed-in customer's residential data and credentials",
        response: { 200: orderUsageListSchema },
      },
    },
    async (request) => listOrderUsage({ db, userId: signedInOf(request).user.id, gatewayEndpoint }),
  );

  api.get(
    '/orders/usage/daily',
    {
      schema: {
        tags: ['orders'],
        summary: 'The residential data the gateway carried for the signed-in customer per day, last 30 days',
        response: { 200: dailyUsageSchema },
      },
    },
    async (request) => listDailyUsage({ db, userId: signedInOf(request).user.id }),
  );

  api.get(
    '/orders/history',
    {
      schema: {
        tags: ['orders'],
        summary: "The signed-in customer's payments with their invoices, newest first",
        description: 'total is in cents of currency; stripe_id is the invoice id of the payment provider.',
        response: { 200: orderHistorySchema },
      },
    },
    async (request) => listOrderHistory({ db, userId: signedInOf(request).user.id }),
  );

  api.get(
    '/orders/processing',
    {
      schema: {
        tags: ['orders'],
        summary: "The signed-in customer's paid residential orders waiting for data",
        response: { 200: processingOrderListSchema },
      },
    },
    async (request) => listProcessingOrders({ db, userId: signedInOf(request).user.id }),
  );

  api.post(
    '/orders/cancel',
    {
      schema: {
        tags: ['orders'],
        summary: 'Cancel an order at the end of its billing cycle; answers the updated order list',
        description:
          "404 for an order that is not the customer's; 409 for an expired, already cancelled or residential order.",
        body: cancelOrderRequestSchema,
        response: { 200: orderListSchema },
      },
    },
    async (request) => cancelOrder({ db, provider, userId: signedInOf(request).user.id, orderId: request.body.id }),
  );
};
