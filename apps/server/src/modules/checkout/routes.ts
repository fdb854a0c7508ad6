import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { checkoutMessages, endpoints, PRODUCT_IDS } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Counter } from 'prom-client';
import type { PaymentsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { enforceLimit, paymentPagesLimiter } from '../../lib/rate-limits.ts';
import { routeOf } from '../../lib/route.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { createCheckout } from './create-checkout.ts';

export interface CheckoutRoutesOptions {
  db: Db;
  guards: Guards;
  provider: PaymentProvider;
  appUrl: string;
  payments: PaymentsConfig;
  /** Where the counters live (../../lib/rate-limit-store.ts). */
  rateLimit: RateLimitPluginOptions;
  /** storefront_checkouts_total (lib/metrics.ts). */
  checkouts: Counter<'product' | 'result'>;
}

/** The product label of a checkout: only the catalogue's ids, so a bad body cannot add label values. */
const productLabel = (body: unknown): string => {
  const product = (body as { productId?: unknown } | undefined)?.productId;
  return PRODUCT_IDS.includes(product as never) ? String(product) : 'unknown';
};

/** POST /api/checkout: `{ success: true, checkoutUrl }`, or `{ success: false, error: { message } }` with its status. */
export const checkoutRoutes: FastifyPluginAsync<CheckoutRoutesOptions> = async (app, options) => {
  await app.register(rateLimit, options.rateLimit);
  const perUser = paymentPagesLimiter(app, options.payments.checkoutRateLimitPerUser);

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...routeOf(endpoints.createCheckout, options.guards),
    // Every refusal of this route has the checkout's own shape, as the Purchase page reads it.
    config: {
      errorShape: {
        body: (message) => ({ success: false, error: { message } }),
        internalError: checkoutMessages.checkoutFallback,
      },
    },
    onResponse: (request, reply, done) => {
      const result = reply.statusCode < 400 ? 'started' : reply.statusCode < 500 ? 'refused' : 'failed';
      options.checkouts.inc({ product: productLabel(request.body), result });
      done();
    },
    preHandler: (request, reply) => enforceLimit(perUser, request, reply, { msg: 'checkout rate limit reached' }),
    handler: async (request) => {
      const { user } = signedInOf(request);
      const { checkoutUrl } = await createCheckout({
        db: options.db,
        provider: options.provider,
        appUrl: options.appUrl,
        currency: options.payments.currency,
        customer: { id: user.id, email: user.email },
        request: request.body,
      });
      return { success: true as const, checkoutUrl };
    },
  });
};
