import { orderHistorySchema, orderListSchema, orderUsageListSchema } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { listOrderHistory, listOrders, listOrderUsage } from './list-orders.ts';

export const orderRoutes: FastifyPluginAsync<{ db: Db; guards: Guards; gatewayEndpoint: string }> = async (
  app,
  { db, guards, gatewayEndpoint },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('preHandler', guards.requireUser);
  api.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  api.get(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: "The signed-in customer's orders, newest first",
        response: { 200: orderListSchema },
      },
    },
    async (request) => listOrders(db, signedInOf(request).user.id),
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
    async (request) => listOrderUsage(db, signedInOf(request).user.id, gatewayEndpoint),
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
    async (request) => listOrderHistory(db, signedInOf(request).user.id),
  );
};
