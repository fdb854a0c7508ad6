import {
  adminCouponListSchema,
  couponMessageResponseSchema,
  couponMessages,
  couponOptionsSchema,
  couponRedemptionsSchema,
  createCouponRequestSchema,
  toggleCouponRequestSchema,
} from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
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

  api.get(
    '/admin/coupons',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every coupon with its products and promo codes, newest first',
        response: { 200: adminCouponListSchema },
      },
    },
    async () => ({ coupons: await listAdminCoupons({ db }) }),
  );

  api.get(
    '/admin/coupons/redemptions',
    {
      schema: {
        tags: ['admin'],
        summary: 'Redemptions by code (paid checkouts), with per-e-mail counts',
        response: { 200: couponRedemptionsSchema },
      },
    },
    async () => listRedemptions({ db }),
  );

  api.get(
    '/admin/coupons/options',
    {
      schema: {
        tags: ['admin'],
        summary: 'The durations and products a coupon can have',
        response: { 200: couponOptionsSchema },
      },
    },
    async () => couponOptions({ db }),
  );

  api.post(
    '/admin/coupons',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a coupon and its promo code (at Stripe too, in the same step)',
        body: createCouponRequestSchema,
        response: { 200: couponMessageResponseSchema },
      },
    },
    async (request) => createAdminCoupon({ db, provider, actor: actorOf(request), input: request.body }),
  );

  api.delete(
    '/admin/coupons/:couponId',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a coupon and its promo codes (at Stripe too); their redemptions are kept',
        params: z.object({ couponId: z.uuid({ error: couponMessages.couponNotFound }) }),
        response: { 200: couponMessageResponseSchema },
      },
    },
    async (request) => deleteAdminCoupon({ db, provider, actor: actorOf(request), couponId: request.params.couponId }),
  );

  api.patch(
    '/admin/coupons/:promoCodeId/toggle',
    {
      schema: {
        tags: ['admin'],
        summary: 'Switch a promo code on or off (at Stripe too)',
        params: z.object({ promoCodeId: z.uuid({ error: couponMessages.promoNotFound }) }),
        body: toggleCouponRequestSchema,
        response: { 200: couponMessageResponseSchema },
      },
    },
    async (request) =>
      toggleAdminPromoCode({
        db,
        provider,
        actor: actorOf(request),
        promoCodeId: request.params.promoCodeId,
        active: request.body.active,
      }),
  );
};
