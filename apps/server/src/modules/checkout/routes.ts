import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { checkoutMessages, checkoutRequestSchema, checkoutResponseSchema, PRODUCT_IDS } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Counter } from 'prom-client';
import { z } from 'zod';
import type { PaymentsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { enforceLimit } from '../../lib/rate-limits.ts';
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

const failure = z.object({ success: z.literal(false), error: z.object({ message: z.string() }) });

/** POST /api/checkout: `{ success: true, checkoutUrl }`, or `{ success: false, error: { message } }` with its status. */
export const checkoutRoutes: FastifyPluginAsync<CheckoutRoutesOptions> = async (app, options) => {
  await app.register(rateLimit, options.rateLimit);
  const perUser = app.createRateLimit({
    max: options.payments.checkoutRateLimitPerUser,
    timeWindow: 10 * 60 * 1000,
    keyGenerator: (request) => `checkout:${request.signedIn?.user.id ?? request.ip}`,
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/checkout',
    {
      // Every refusal of this route has the checkout's own shape, as the Purchase page reads it.
      config: {
        errorShape: {
          body: (message) => ({ success: false, error: { message } }),
          internalError: checkoutMessages.checkoutFallback,
        },
      },
      onRequest: options.guards.requireUser,
      onResponse: (request, reply, done) => {
        const result = reply.statusCode < 400 ? 'started' : reply.statusCode < 500 ? 'refused' : 'failed';
        options.checkouts.inc({ product: productLabel(request.body), result });
        done();
      },
      preHandler: (request, reply) => enforceLimit(perUser, request, reply, { msg: 'checkout rate limit reached' }),
      schema: {
        tags: ['checkout'],
        summary: 'Start a checkout: creates the order awaiting payment and answers the payment page URL',
        description:
          'quantity is one of the product bundles, or 1 to 10000 for a custom amount (not PK1); coupon is a promo code.',
        body: checkoutRequestSchema,
        response: { 200: checkoutResponseSchema, '4xx': failure, '5xx': failure },
      },
    },
    async (request) => {
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
  );
};
