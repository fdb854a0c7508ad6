import {
  adminAlertsSchema,
  adminCouponListSchema,
  adminUserLookupQuerySchema,
  adminUserLookupSchema,
  auditLogQuerySchema,
  auditLogSchema,
  couponMessageResponseSchema,
  couponMessages,
  couponOptionsSchema,
  couponRedemptionsSchema,
  createCouponRequestSchema,
  customCheckoutRequestSchema,
  customCheckoutResponseSchema,
  dailyUsageSchema,
  featureListSchema,
  fulfilRequestSchema,
  fulfilResponseSchema,
  IP_POOLS,
  ipPoolSchema,
  ipStockSchema,
  residentialStockSchema,
  setResidentialLimitRequestSchema,
  setResidentialLimitResponseSchema,
  subnetsDataSchema,
  subnetsQuerySchema,
  swapSubnetRequestSchema,
  swapSubnetResponseSchema,
  toggleCouponRequestSchema,
  updateFeaturesRequestSchema,
  uploadIpsRequestSchema,
  uploadIpsResponseSchema,
} from '@storefront/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { listOpenAlerts } from '../alerts/list-alerts.ts';
import { listAuditLog } from '../audit/list-audit-log.ts';
import type { Actor } from '../audit/record-audit.ts';
import { signedInOf } from '../auth/guards.ts';
import { listFeatures } from '../catalogue/list-features.ts';
import { updateFeatures } from '../catalogue/update-features.ts';
import {
  couponOptions,
  createAdminCoupon,
  deleteAdminCoupon,
  listAdminCoupons,
  listRedemptions,
  toggleAdminPromoCode,
} from '../coupons/admin-coupons.ts';
import { createCustomCheckout } from '../custom-orders/create-custom-checkout.ts';
import { lookUpUser } from '../custom-orders/custom-orders.ts';
import { fulfilCustomOrder } from '../custom-orders/fulfil-custom-order.ts';
import { getIpStock } from '../inventory/ip-stock.ts';
import { listSubnets } from '../inventory/list-subnets.ts';
import { getResidentialStock, setResidentialLimit } from '../inventory/residential-stock.ts';
import { swapSubnet } from '../inventory/swap-subnet.ts';
import { uploadIps } from '../inventory/upload-ips.ts';
import { listDailyUsage } from '../orders/daily-usage.ts';

const poolParams = z.object({ pool: ipPoolSchema });
/** Uploads and swaps carry up to a /16 of lines (65,536 of about 40 characters). */
const LARGE_BODY = 8 * 1_048_576;

/** The changes that can end an alert (stock arrives, a pool is switched off, an order is fulfilled). */
const CHANGES_ALERTS = new Set([
  '/admin/features',
  '/admin/stocks/residential',
  '/admin/stocks/:pool/upload',
  '/admin/ips/:pool/subnets/swap',
  '/admin/orders/fulfill',
]);

const actorOf = (request: FastifyRequest): Actor => {
  const { user } = signedInOf(request);
  return { id: user.id, email: user.email };
};

/**
 * The administrator's console API under /api/admin (spec section 7, ARCHITECTURE section 4). Who may call it is checked
 * once for the whole /api/admin subtree in app.ts (401 for a visitor, 403 for a customer), not route by route.
 */
export const adminRoutes: FastifyPluginAsync<{
  db: Db;
  brand: Branding;
  provider: PaymentProvider;
  currency: string;
  /** Sends the e-mails a change queued (orders delivered from new stock, fulfilments), in the background. */
  flushEmails: () => void;
  /** Checks the alerts in the background: new stock resolves the waiting orders' and the low-stock alerts at once. */
  checkAlerts?: () => void;
}> = async (app, { db, brand, provider, currency, flushEmails, checkAlerts }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);
  // A write that delivered orders has queued their e-mails: they go out now rather than at the next periodic run.
  api.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode === 200) {
      flushEmails();
      if (CHANGES_ALERTS.has(request.routeOptions.url?.replace(/^\/api/, '') ?? '')) checkAlerts?.();
    }
  });

  api.get(
    '/admin/alerts',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The open alerts (paid orders waiting, low stock, the periodic job stuck, e-mails failing), oldest first by kind',
        response: { 200: adminAlertsSchema },
      },
    },
    async () => listOpenAlerts({ db }),
  );

  api.get(
    '/admin/features',
    { schema: { tags: ['admin'], summary: 'The feature flags', response: { 200: featureListSchema } } },
    async () => listFeatures({ db }),
  );

  api.post(
    '/admin/features',
    {
      schema: {
        tags: ['admin'],
        summary: 'Switch products on or off: the whole feature list in, the whole list out',
        body: updateFeaturesRequestSchema,
        response: { 200: featureListSchema },
      },
    },
    async (request) => updateFeatures({ db, actor: actorOf(request), features: request.body }),
  );

  api.get(
    '/admin/stocks/residential',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The residential pool in MB: used (sold), limit, available, usage, and carried (metered by the gateway)',
        response: { 200: residentialStockSchema },
      },
    },
    async () => getResidentialStock({ db }),
  );

  api.get(
    '/admin/stocks/residential/daily',
    {
      schema: {
        tags: ['admin'],
        summary: 'The residential data the gateway carried for all customers per day, last 30 days',
        response: { 200: dailyUsageSchema },
      },
    },
    async () => listDailyUsage({ db }),
  );

  api.put(
    '/admin/stocks/residential',
    {
      schema: {
        tags: ['admin'],
        summary: 'Set the residential pool (MB); a larger pool delivers waiting orders first come, first served',
        body: setResidentialLimitRequestSchema,
        response: { 200: setResidentialLimitResponseSchema },
      },
    },
    async (request) =>
      setResidentialLimit({ db, brand, actor: actorOf(request), bandwidthLimit: request.body.bandwidthLimit }),
  );

  api.get(
    '/admin/stocks/:pool',
    {
      schema: {
        tags: ['admin'],
        summary: 'A static pool (pk1 or isp): counts, usage and the burnt IPs (recycles)',
        params: poolParams,
        response: { 200: ipStockSchema },
      },
    },
    async (request) => getIpStock({ db, productId: IP_POOLS[request.params.pool] }),
  );

  api.post(
    '/admin/stocks/:pool/upload',
    {
      bodyLimit: LARGE_BODY,
      schema: {
        tags: ['admin'],
        summary:
          'Add IPs to a pool (IP:PORT:USERNAME:PASSWORD lines); waiting orders are delivered at once, oldest first',
        params: poolParams,
        body: uploadIpsRequestSchema,
        response: { 200: uploadIpsResponseSchema },
      },
    },
    async (request) =>
      uploadIps({
        db,
        brand,
        actor: actorOf(request),
        productId: IP_POOLS[request.params.pool],
        lines: request.body.ips,
      }),
  );

  api.get(
    '/admin/ips/:pool/subnets',
    {
      schema: {
        tags: ['admin'],
        summary: "A pool's /24 subnets with their counts and IPs (ips=false: counts only; subnet=…: one subnet)",
        params: poolParams,
        querystring: subnetsQuerySchema.extend({ subnet: z.string().trim().min(1).max(50).optional() }),
        response: { 200: subnetsDataSchema },
      },
    },
    async (request) =>
      listSubnets({
        db,
        productId: IP_POOLS[request.params.pool],
        withIps: request.query.ips === 'true',
        subnet: request.query.subnet,
      }),
  );

  api.post(
    '/admin/ips/:pool/subnets/swap',
    {
      bodyLimit: LARGE_BODY,
      schema: {
        tags: ['admin'],
        summary: "Give a subnet's IPs new endpoints in place (as many as it has); burnt flags are cleared",
        params: poolParams,
        body: swapSubnetRequestSchema,
        response: { 200: swapSubnetResponseSchema },
      },
    },
    async (request) =>
      swapSubnet({
        db,
        brand,
        actor: actorOf(request),
        productId: IP_POOLS[request.params.pool],
        subnet: request.body.subnet,
        newEndpoints: request.body.newEndpoints,
      }),
  );

  api.get(
    '/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Find a customer by e-mail (trimmed, any case), with their custom orders',
        querystring: adminUserLookupQuerySchema,
        response: { 200: adminUserLookupSchema },
      },
    },
    async (request) => lookUpUser({ db, email: request.query.email }),
  );

  api.post(
    '/admin/checkout/pk1/custom',
    {
      schema: {
        tags: ['admin'],
        summary: 'A custom PK1 order (1 to 1000 IPs) for a customer: answers the payment link the customer pays',
        body: customCheckoutRequestSchema,
        response: { 200: customCheckoutResponseSchema },
      },
    },
    async (request) =>
      createCustomCheckout({
        db,
        provider,
        appUrl: brand.appUrl,
        currency,
        actor: actorOf(request),
        userId: request.body.userId,
        quantity: request.body.quantity,
        coupon: request.body.coupon,
      }),
  );

  api.post(
    '/admin/orders/fulfill',
    {
      bodyLimit: LARGE_BODY,
      schema: {
        tags: ['admin'],
        summary:
          "Fulfil a paid custom order with exactly its quantity of proxies; answers the customer's custom orders",
        body: fulfilRequestSchema,
        response: { 200: fulfilResponseSchema },
      },
    },
    async (request) =>
      fulfilCustomOrder({
        db,
        brand,
        actor: actorOf(request),
        userId: request.body.userId,
        orderId: request.body.orderId,
        lines: request.body.ips,
      }),
  );

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

  api.get(
    '/admin/audit-log',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every administrator change, newest first (who, when, what, the figures)',
        querystring: auditLogQuerySchema,
        response: { 200: auditLogSchema },
      },
    },
    async (request) => listAuditLog({ db, page: request.query.page }),
  );
};
