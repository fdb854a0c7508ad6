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
  listRedemptions,
  toggleAdminPromoCode,
} from './admin-coupons.ts';

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

  api.route({ ...routeOf(endpoints.listCouponRedemptions), handler: async () => listRedemptions({ db }) });

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
