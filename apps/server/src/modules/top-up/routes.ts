import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PaymentsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { enforceLimit, paymentPagesLimiter } from '../../lib/rate-limits.ts';
import { routeOf } from '../../lib/route.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { type Guards, readerOf, signedInOf } from '../auth/guards.ts';
import { readRouteOf } from '../auth/read-route.ts';
import { jobTime } from '../jobs/clock.ts';
import { removeCard, startCardSetup } from './card-setup.ts';
import { readTopUp, saveTopUp } from './top-up-settings.ts';

export interface TopUpRoutesOptions {
  db: Db;
  guards: Guards;
  provider: PaymentProvider;
  brand: Branding;
  payments: PaymentsConfig;
  rateLimit: RateLimitPluginOptions;
  keyRateLimitPerMinute: number;
}

/**
 * /api/residential/top-up: a session or an API key reads the settings and history; changing them, and the card, take a
 * signed-in session. Opening a card page makes objects at the provider, so it has the checkout's limit
 * (lib/rate-limits.ts).
 */
export const topUpRoutes: FastifyPluginAsync<TopUpRoutesOptions> = async (app, options) => {
  const { db, guards, provider, brand, payments } = options;
  await app.register(rateLimit, options.rateLimit);
  const readRoute = readRouteOf(app, guards, options.keyRateLimitPerMinute);
  const perUser = paymentPagesLimiter(app, payments.checkoutRateLimitPerUser);
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);
  const answer = async (userId: string) =>
    readTopUp({
      db,
      userId,
      provider: provider.name,
      currency: payments.currency,
      now: await jobTime(db, provider.name === 'sandbox'),
    });

  api.route({ ...readRoute(endpoints.getTopUp), handler: async (request) => answer(readerOf(request)) });

  api.route({
    ...routeOf(endpoints.saveTopUp, guards),
    handler: async (request) => {
      const userId = signedInOf(request).user.id;
      await saveTopUp({ db, userId, provider: provider.name, currency: payments.currency, request: request.body });
      return answer(userId);
    },
  });

  api.route({
    ...routeOf(endpoints.startCardSetup, guards),
    preHandler: (request, reply) => enforceLimit(perUser, request, reply, { msg: 'card page rate limit reached' }),
    handler: async (request) => {
      const { user } = signedInOf(request);
      return startCardSetup({
        db,
        provider,
        brand,
        currency: payments.currency,
        customer: { id: user.id, email: user.email },
      });
    },
  });

  api.route({
    ...routeOf(endpoints.removeCard, guards),
    handler: async (request) => {
      const userId = signedInOf(request).user.id;
      await removeCard({ db, provider, userId });
      return answer(userId);
    },
  });
};
