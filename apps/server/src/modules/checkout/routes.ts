import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { checkoutRequestSchema, checkoutResponseSchema } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PaymentsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { tooManyAttemptsMessage } from '../auth/rate-limit.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { createCheckout } from './create-checkout.ts';

export interface CheckoutRoutesOptions {
  db: Db;
  guards: Guards;
  provider: PaymentProvider;
  appUrl: string;
  payments: PaymentsConfig;
  /** Where the counters live (../../lib/rate-limit-store.ts). */
  rateLimit: RateLimitPluginOptions;
}

const failure = z.object({ success: z.literal(false), error: z.object({ message: z.string() }) });

/** POST /api/checkout: `{ success: true, checkoutUrl }`, or `{ success: false, error: { message } }` with its status. */
export const checkoutRoutes: FastifyPluginAsync<CheckoutRoutesOptions> = async (app, options) => {
  await app.register(rateLimit, options.rateLimit);
  const perUser = app.createRateLimit({
    max: options.payments.checkoutRateLimitPerUser,
    timeWindow: 10 * 60 * 1000,
    keyGenerator: (request) => `checkout:${request.signedIn?.user.id ?? request.ip}`,
  });

  // Every refusal of this route has the checkout's own shape, as the Purchase page reads it.
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error instanceof AppError ? error.status : (error.statusCode ?? 500);
    if (status >= 500 && !(error instanceof AppError)) {
      request.log.error({ err: error }, 'checkout failed');
      return reply.status(500).send({ success: false, error: { message: 'Failed to create checkout session' } });
    }
    return reply.status(status).send({ success: false, error: { message: error.message } });
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/checkout',
    {
      preHandler: [
        options.guards.requireUser,
        async (request, reply) => {
          const limit = await perUser(request);
          if (!limit.isAllowed && limit.isExceeded) {
            reply.header('retry-after', String(limit.ttlInSeconds));
            throw new AppError('TOO_MANY_REQUESTS', tooManyAttemptsMessage(limit.ttlInSeconds));
          }
        },
      ],
      schema: {
        tags: ['checkout'],
        summary: 'Start a checkout: creates the order awaiting payment and answers the payment page URL',
        description:
          'quantity is one of the product bundles, or 1 to 10000 for a custom amount (not PK1); coupon is a promo code.',
        body: checkoutRequestSchema.partial().passthrough(),
        response: { 200: checkoutResponseSchema, '4xx': failure, '5xx': failure },
      },
    },
    async (request) => {
      const user = signedInOf(request).user;
      const { checkoutUrl } = await createCheckout(
        {
          db: options.db,
          provider: options.provider,
          appUrl: options.appUrl,
          currency: options.payments.currency,
          log: request.log,
        },
        { id: user.id, email: user.email },
        request.body,
      );
      return { success: true as const, checkoutUrl };
    },
  );
};
