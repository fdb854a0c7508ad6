import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { type Endpoint, endpoints } from '@storefront/contract';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { sourceKey } from '../../lib/ip-address.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { enforceLimit } from '../../lib/rate-limits.ts';
import { routeOf } from '../../lib/route.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { type Guards, readerOf, signedInOf } from '../auth/guards.ts';
import { readRouteOf } from '../auth/read-route.ts';
import { listReplacements } from '../replacements/list-replacements.ts';
import { previewReplacement } from '../replacements/preview-replacement.ts';
import { replaceIps } from '../replacements/replace-ips.ts';
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
import { proxyListLines } from './proxy-list.ts';
import { testResidentialConnection } from './test-connection.ts';
import { usageReport } from './usage-report.ts';

export interface OrderRoutesOptions {
  db: Db;
  guards: Guards;
  gatewayEndpoint: string;
  /** Where 'Test connection' sends its request through the gateway; undefined: no test. */
  gatewayTestUrl: string | undefined;
  provider: PaymentProvider;
  /** Where the counters live (../../lib/rate-limit-store.ts). */
  rateLimit: RateLimitPluginOptions;
  keyRateLimitPerMinute: number;
  /** IP_REPLACEMENT_PERCENT: the share of an order's IPs replaceable per billing period. */
  replacementPercent: number;
}

/** Connection tests one customer may run in a minute. */
const CONNECTION_TESTS_PER_MINUTE = 5;

/** Whether an If-None-Match header names `etag` (a list, weak or strong, or `*`). */
const sentBack = (header: string | undefined, etag: string) =>
  header?.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, ''))) ?? false;

export const orderRoutes: FastifyPluginAsync<OrderRoutesOptions> = async (
  app,
  {
    db,
    guards,
    gatewayEndpoint,
    gatewayTestUrl,
    provider,
    rateLimit: rateLimitOptions,
    keyRateLimitPerMinute,
    replacementPercent: percent,
  },
) => {
  await app.register(rateLimit, rateLimitOptions);
  const readRoute = readRouteOf(app, guards, keyRateLimitPerMinute);
  // Each test is a request through the gateway and out to the test address: a few a minute are all a person clicks.
  const perCustomerTest = app.createRateLimit({
    max: CONNECTION_TESTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `connection-test:${request.signedIn?.user.id ?? sourceKey(request.ip)}`,
  });
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);

  api.route({
    ...readRoute(endpoints.listOrders),
    handler: async (request, reply) => {
      const userId = readerOf(request);
      const rows = await listOrderRows({ db, userId });
      // The answer's version: a client that sends it back (If-None-Match) gets 304 without the proxies being read.
      const version = ordersVersion(rows);
      // Weak: the same version is sent plain, br or gzip.
      reply.header('etag', `W/"${version}"`);
      if (sentBack(request.headers['if-none-match'], `"${version}"`)) return reply.code(304).send();
      return listOrders({ db, userId, rows });
    },
  });

  api.route({
    ...readRoute(endpoints.listOrderUsage),
    handler: async (request) => listOrderUsage({ db, userId: readerOf(request), gatewayEndpoint }),
  });

  api.route({
    ...readRoute(endpoints.getDailyUsage),
    handler: async (request) => listDailyUsage({ db, userId: readerOf(request) }),
  });

  api.route({
    ...readRoute(endpoints.getUsage),
    handler: async (request) => usageReport(db, readerOf(request), request.query),
  });

  api.route({
    ...readRoute(endpoints.listOrderHistory),
    handler: async (request) => listOrderHistory({ db, userId: readerOf(request) }),
  });

  api.route({
    ...readRoute(endpoints.listProcessingOrders),
    handler: async (request) => listProcessingOrders({ db, userId: readerOf(request) }),
  });

  api.route({
    ...readRoute(endpoints.getProxyList),
    handler: async (request, reply) => {
      const lines = await proxyListLines({ db, userId: readerOf(request), query: request.query, gatewayEndpoint });
      reply.type('text/plain; charset=utf-8');
      return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    },
  });

  api.route({
    ...routeOf(endpoints.testResidentialConnection, guards),
    preHandler: (request, reply) =>
      enforceLimit(perCustomerTest, request, reply, { msg: 'connection test rate limit reached' }),
    handler: async (request) =>
      testResidentialConnection({
        db,
        userId: signedInOf(request).user.id,
        line: request.body,
        gatewayEndpoint,
        testUrl: gatewayTestUrl,
      }),
  });

  api.route({
    ...routeOf(endpoints.cancelOrder, guards),
    handler: async (request) =>
      cancelOrder({ db, provider, userId: signedInOf(request).user.id, orderId: request.body.id }),
  });

  // Replacing bad IPs (modules/replacements): the history is a read a key may make; preview and replace are not.
  api.route({
    ...readRoute(endpoints.listReplacements),
    handler: async (request) =>
      listReplacements({
        db,
        userId: readerOf(request),
        orderId: request.params.id,
        after: request.query.after,
        percent,
      }),
  });

  api.route({
    ...routeOf(endpoints.previewReplacement, guards),
    handler: async (request) =>
      previewReplacement({
        db,
        userId: signedInOf(request).user.id,
        orderId: request.params.id,
        request: request.body,
        percent,
      }),
  });

  api.route({
    ...routeOf(endpoints.replaceIps, guards),
    handler: async (request) =>
      replaceIps({
        db,
        userId: signedInOf(request).user.id,
        orderId: request.params.id,
        request: request.body,
        percent,
      }),
  });
};
