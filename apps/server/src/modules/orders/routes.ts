import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import {
  cancelOrderRequestSchema,
  dailyUsageSchema,
  type OrderUsage,
  orderHistorySchema,
  orderListSchema,
  orderUsageListSchema,
  processingOrderListSchema,
  proxyListQuerySchema,
} from '@storefront/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { preparedJson, sendJson } from '../../lib/prepared-json.ts';
import { enforceLimit } from '../../lib/rate-limits.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { type Guards, readerOf, signedInOf } from '../auth/guards.ts';
import { cancelOrder } from './cancel-order.ts';
import { listDailyUsage } from './daily-usage.ts';
import {
  listOrderHistory,
  listOrderRows,
  listOrders,
  listOrderUsage,
  listProcessingOrders,
  ordersVersion,
} from './list-orders.ts';
import { createOrdersAnswers } from './orders-answer.ts';
import { proxyListLines } from './proxy-list.ts';
import type { UsageCache } from './usage-cache.ts';

export interface OrderRoutesOptions {
  db: Db;
  guards: Guards;
  gatewayEndpoint: string;
  usageCache: UsageCache;
  provider: PaymentProvider;
  /** Where the counters live (../../lib/rate-limit-store.ts). */
  rateLimit: RateLimitPluginOptions;
  keyRateLimitPerMinute: number;
}

/** The API reference marks every call a personal API key may make (plugins/api-docs.ts names the schemes). */
const KEY_SECURITY: { [scheme: string]: string[] }[] = [{ session: [] }, { apiKey: [] }];

/** Whether an If-None-Match header names `etag` (a list, weak or strong, or `*`). */
const sentBack = (header: string | undefined, etag: string) =>
  header?.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, ''))) ?? false;

/** A customer's usage answer as bytes, made once per answer the usage cache keeps. */
const preparedUsage = preparedJson(orderUsageListSchema, (usage: OrderUsage[]) => usage);

export const orderRoutes: FastifyPluginAsync<OrderRoutesOptions> = async (
  app,
  { db, guards, gatewayEndpoint, usageCache, provider, rateLimit: rateLimitOptions, keyRateLimitPerMinute },
) => {
  await app.register(rateLimit, rateLimitOptions);
  const perKey = app.createRateLimit({
    max: keyRateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `api-key:${request.keyHolder?.keyId ?? request.ip}`,
  });
  /**
   * The customer's own reads: a session, or an API key counted against its own limit (shared across instances); the
   * key in the query string only where `keyInQuery` (the list link).
   */
  const readerGuard = (keyInQuery: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    await guards.requireReader(request, reply, { keyInQuery });
    if (!request.keyHolder) return;
    await enforceLimit(perKey, request, reply, { msg: 'API key rate limit reached', keyId: request.keyHolder.keyId });
  };
  const requireReader = readerGuard(false);
  const ordersAnswers = createOrdersAnswers();
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);

  api.get(
    '/orders',
    {
      onRequest: requireReader,
      schema: {
        tags: ['orders', 'api keys'],
        security: KEY_SECURITY,
        summary: "The signed-in customer's orders, newest first",
        description: 'Carries an ETag: sent back in If-None-Match, it is answered 304 while the orders are unchanged.',
        response: { 200: orderListSchema, 304: z.void().describe('The orders are as in the version sent') },
      },
    },
    async (request, reply) => {
      const userId = readerOf(request);
      const rows = await listOrderRows({ db, userId });
      // The answer's version: a client that sends it back (If-None-Match) gets 304 without the proxies being read.
      const version = ordersVersion(rows);
      // Weak: the same version is sent plain, br or gzip.
      reply.header('etag', `W/"${version}"`);
      reply.header('vary', 'accept-encoding');
      if (sentBack(request.headers['if-none-match'], `"${version}"`)) return reply.code(304).send();
      const { bytes, encoding } = await ordersAnswers.answer(
        userId,
        version,
        () => listOrders({ db, userId, rows }),
        request.headers['accept-encoding'],
      );
      if (encoding) reply.header('content-encoding', encoding);
      return sendJson(reply, bytes);
    },
  );

  api.get(
    '/orders/usage',
    {
      // At most one residential account a customer: always below the compression threshold, so the hooks are left off.
      compress: false,
      onRequest: requireReader,
      schema: {
        tags: ['orders', 'api keys'],
        security: KEY_SECURITY,
        summary: "The signed-in customer's residential data and credentials",
        response: { 200: orderUsageListSchema },
      },
    },
    async (request, reply) => {
      const userId = readerOf(request);
      // The same answer object while it is kept (usage-cache.ts), so it is serialised once per change.
      return sendJson(
        reply,
        preparedUsage(await usageCache.get(userId, () => listOrderUsage({ db, userId, gatewayEndpoint }))),
      );
    },
  );

  api.get(
    '/orders/usage/daily',
    {
      onRequest: requireReader,
      schema: {
        tags: ['orders', 'api keys'],
        security: KEY_SECURITY,
        summary: 'The residential data the gateway carried for the signed-in customer per day, last 30 days',
        response: { 200: dailyUsageSchema },
      },
    },
    async (request) => listDailyUsage({ db, userId: readerOf(request) }),
  );

  api.get(
    '/orders/history',
    {
      onRequest: requireReader,
      schema: {
        tags: ['orders', 'api keys'],
        security: KEY_SECURITY,
        summary: "The signed-in customer's payments with their invoices, newest first",
        description: 'total is in cents of currency; stripe_id is the invoice id of the payment provider.',
        response: { 200: orderHistorySchema },
      },
    },
    async (request) => listOrderHistory({ db, userId: readerOf(request) }),
  );

  api.get(
    '/orders/processing',
    {
      onRequest: requireReader,
      schema: {
        tags: ['orders', 'api keys'],
        security: KEY_SECURITY,
        summary: "The signed-in customer's paid residential orders waiting for data",
        response: { 200: processingOrderListSchema },
      },
    },
    async (request) => listProcessingOrders({ db, userId: readerOf(request) }),
  );

  api.get(
    '/proxy-list',
    {
      onRequest: readerGuard(true),
      schema: {
        tags: ['api keys'],
        security: [{ apiKeyInQuery: [] }, { apiKey: [] }, { session: [] }],
        summary: "The customer's current proxies as text, one a line, for a tool that loads its list by URL",
        description: [
          'The IPs of the live orders (delivered or processing), newest order first, in `format`. Without `product`,',
          'every Elite ISP and PK1 proxy. With `product=residential_proxies`, `count` generated lines with `country`',
          'and `type`, each with a new session id. A swap or a renewal shows at the next load.',
          '',
          '```',
          "curl 'https://example.com/api/proxy-list?key=psk_YOUR_KEY&product=pk1_isp_proxies&format=socks5://user:pass@ip:port'",
          '```',
        ].join('\n'),
        querystring: proxyListQuerySchema,
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const lines = await proxyListLines({ db, userId: readerOf(request), query: request.query, gatewayEndpoint });
      reply.type('text/plain; charset=utf-8');
      return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    },
  );

  api.post(
    '/orders/cancel',
    {
      onRequest: guards.requireUser,
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
