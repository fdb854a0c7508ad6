import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { routeOf } from '../../lib/route.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { actorOf } from '../auth/guards.ts';
import {
  couponOptions,
  createAdminCoupon,
  deleteAdminCoupon,
  listAdminCoupons,
  toggleAdminPromoCode,
} from './admin-coupons.ts';
import { listRedemptionEmails, listRedemptions, redemptionEmailsCsv } from './redemptions.ts';

/**
 * Coupons and their promotion codes: the administrator's console API (spec section 7). Registered in the admin context (modules/admin/admin-api.ts),
 * whose own hook lets only administrators through (401 for a visitor, 403 for a customer).
 */
export const couponAdminRoutes: FastifyPluginAsync<{ db: Db; provider: PaymentProvider }> = async (
  app,
  { db, provider },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({
    ...routeOf(endpoints.listCoupons),
    handler: async () => ({ coupons: await listAdminCoupons({ db }) }),
  });

  api.route({
    ...routeOf(endpoints.listCouponRedemptions),
    handler: async (request) => listRedemptions({ db, before: request.query.before }),
  });

  api.route({
    ...routeOf(endpoints.listRedemptionEmails),
    handler: async (request) =>
      listRedemptionEmails({ db, promoCodeId: request.params.promoCodeId, after: request.query.after }),
  });

  api.route({
    ...routeOf(endpoints.downloadRedemptionEmails),
    handler: async (request, reply) => {
      const csv = await redemptionEmailsCsv({ db, promoCodeId: request.params.promoCodeId });
      reply.type('text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="redemptions-${request.params.promoCodeId}.csv"`);
      // A stream is sent as it is read; the contract types the body as the text it becomes.
      return reply.send(csv as unknown as string);
    },
  });

  api.route({ ...routeOf(endpoints.getCouponOptions), handler: async () => couponOptions({ db }) });

  api.route({
    ...routeOf(endpoints.createCoupon),
    handler: async (request) => createAdminCoupon({ db, provider, actor: actorOf(request), input: request.body }),
  });

  api.route({
    ...routeOf(endpoints.deleteCoupon),
    handler: async (request) =>
      deleteAdminCoupon({ db, provider, actor: actorOf(request), couponId: request.params.couponId }),
  });

  api.route({
    ...routeOf(endpoints.togglePromoCode),
    handler: async (request) =>
      toggleAdminPromoCode({
        db,
        provider,
        actor: actorOf(request),
        promoCodeId: request.params.promoCodeId,
        active: request.body.active,
      }),
  });
};
