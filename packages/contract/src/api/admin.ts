import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import {
  adminCouponListSchema,
  adminUserLookupQuerySchema,
  adminUserLookupSchema,
  auditLogQuerySchema,
  auditLogSchema,
  couponIdParamsSchema,
  couponMessageResponseSchema,
  couponOptionsSchema,
  couponRedemptionsQuerySchema,
  couponRedemptionsSchema,
  createCouponRequestSchema,
  customCheckoutRequestSchema,
  customCheckoutResponseSchema,
  customerMatchesSchema,
  customerSearchQuerySchema,
  fulfilRequestSchema,
  fulfilResponseSchema,
  ipPoolParamsSchema,
  ipStockQuerySchema,
  ipStockSchema,
  promoCodeIdParamsSchema,
  redemptionEmailsParamsSchema,
  redemptionEmailsQuerySchema,
  redemptionEmailsSchema,
  residentialStockSchema,
  setResidentialLimitRequestSchema,
  setResidentialLimitResponseSchema,
  subnetsDataSchema,
  subnetsQuerySchema,
  swapSubnetRequestSchema,
  swapSubnetResponseSchema,
  toggleCouponRequestSchema,
  topResidentialCustomersSchema,
  updateFeaturesRequestSchema,
} from '../schemas/admin.ts';
import { adminAlertsSchema } from '../schemas/alerts.ts';
import { featureListSchema } from '../schemas/catalogue.ts';
import { uploadIpsRequestSchema, uploadIpsResponseSchema } from '../schemas/inventory.ts';
import { dailyUsageSchema } from '../schemas/orders.ts';
import { replacementStatsSchema, replacementSubnetsQuerySchema } from '../schemas/replacements.ts';
import { routes } from './routes.ts';

/**
 * The administrator's console, under /api/admin: every call here is `access: 'admin'`, and the server declares them in
 * the admin context (apps/server/src/modules/admin/admin-api.ts), whose hook lets only administrators through.
 */
export const adminEndpoints = {
  // The alerts and the audit log.
  listOpenAlerts: endpoint(routes.listOpenAlerts, {
    tags: ['admin'],
    summary:
      'The open alerts (paid orders waiting, low stock, the periodic job stuck, e-mails failing), oldest first by kind',
    status: 200,
    response: adminAlertsSchema,
  }),
  listAuditLog: endpoint(routes.listAuditLog, {
    tags: ['admin'],
    summary: 'Every administrator change, newest first (who, when, what, the figures)',
    query: auditLogQuerySchema,
    status: 200,
    response: auditLogSchema,
  }),

  // The feature flags.
  listFeatureFlags: endpoint(routes.listFeatureFlags, {
    tags: ['admin'],
    summary: 'The feature flags',
    status: 200,
    response: featureListSchema,
  }),
  saveFeatureFlags: endpoint(routes.saveFeatureFlags, {
    tags: ['admin'],
    summary: 'Switch products on or off: the whole feature list in, the whole list out',
    body: updateFeaturesRequestSchema,
    status: 200,
    response: featureListSchema,
  }),

  // The residential pool and the pools of static IPs.
  getResidentialStock: endpoint(routes.getResidentialStock, {
    tags: ['admin'],
    summary: 'The residential pool in MB: used (sold), limit, available, usage, and carried (metered by the gateway)',
    status: 200,
    response: residentialStockSchema,
  }),
  getResidentialDailyUsage: endpoint(routes.getResidentialDailyUsage, {
    tags: ['admin'],
    summary: 'The residential data the gateway carried for all customers per day, last 30 days',
    status: 200,
    response: dailyUsageSchema,
  }),
  listTopResidentialCustomers: endpoint(routes.listTopResidentialCustomers, {
    tags: ['admin'],
    summary: 'The 10 customers who used the most residential data this calendar month (UTC), most first',
    status: 200,
    response: topResidentialCustomersSchema,
  }),
  setResidentialLimit: endpoint(routes.setResidentialLimit, {
    tags: ['admin'],
    summary: 'Set the residential pool (MB); a larger pool delivers waiting orders first come, first served',
    body: setResidentialLimitRequestSchema,
    status: 200,
    response: setResidentialLimitResponseSchema,
  }),
  getIpStock: endpoint(routes.getIpStock, {
    tags: ['admin'],
    summary: 'A static pool (pk1 or isp): counts, usage and a page of its burnt IPs (recycles; after=recyclesNext)',
    params: ipPoolParamsSchema,
    query: ipStockQuerySchema,
    status: 200,
    response: ipStockSchema,
  }),
  downloadBurntIps: endpoint(routes.downloadBurntIps, {
    tags: ['admin'],
    summary: "Every burnt IP of a pool, one a line, as a text file (the stock card's Copy All and Download)",
    params: ipPoolParamsSchema,
    status: 200,
    response: z.string(),
  }),
  uploadIps: endpoint(routes.uploadIps, {
    tags: ['admin'],
    summary: 'Add IPs to a pool (IP:PORT:USERNAME:PASSWORD lines); waiting orders are delivered at once, oldest first',
    params: ipPoolParamsSchema,
    body: uploadIpsRequestSchema,
    status: 200,
    response: uploadIpsResponseSchema,
  }),
  listSubnets: endpoint(routes.listSubnets, {
    tags: ['admin'],
    summary: "A page of a pool's /24 subnets with their counts, filtered; subnet=…: one subnet with its IPs",
    params: ipPoolParamsSchema,
    query: subnetsQuerySchema,
    status: 200,
    response: subnetsDataSchema,
  }),
  swapSubnet: endpoint(routes.swapSubnet, {
    tags: ['admin'],
    summary: "Give a subnet's IPs new endpoints in place (as many as it has); burnt flags are cleared",
    params: ipPoolParamsSchema,
    body: swapSubnetRequestSchema,
    status: 200,
    response: swapSubnetResponseSchema,
  }),
  listReplacementStats: endpoint(routes.listReplacementStats, {
    tags: ['admin'],
    summary:
      "Customers' IP replacements of a pool: totals by reason, and its subnets, the most flagged as blocked first",
    params: ipPoolParamsSchema,
    query: replacementSubnetsQuerySchema,
    status: 200,
    response: replacementStatsSchema,
  }),

  // Custom PK1 orders: finding the customer, the checkout link and fulfilment.
  findCustomers: endpoint(routes.findCustomers, {
    tags: ['admin'],
    summary: 'Customers matching an e-mail or its start, the start of a name, a user id or an order id: up to 20',
    query: customerSearchQuerySchema,
    status: 200,
    response: customerMatchesSchema,
  }),
  lookUpCustomer: endpoint(routes.lookUpCustomer, {
    tags: ['admin'],
    summary: 'Find a customer by e-mail (trimmed, any case), with their custom orders',
    query: adminUserLookupQuerySchema,
    status: 200,
    response: adminUserLookupSchema,
  }),
  createCustomCheckout: endpoint(routes.createCustomCheckout, {
    tags: ['admin'],
    summary: 'A custom PK1 order (1 to 1000 IPs) for a customer: answers the payment link the customer pays',
    body: customCheckoutRequestSchema,
    status: 200,
    response: customCheckoutResponseSchema,
  }),
  fulfilCustomOrder: endpoint(routes.fulfilCustomOrder, {
    tags: ['admin'],
    summary: "Fulfil a paid custom order with exactly its quantity of proxies; answers the customer's custom orders",
    body: fulfilRequestSchema,
    status: 200,
    response: fulfilResponseSchema,
  }),

  // Coupons and their promotion codes.
  listCoupons: endpoint(routes.listCoupons, {
    tags: ['admin'],
    summary: 'Every coupon with its products and promo codes, newest first',
    status: 200,
    response: adminCouponListSchema,
  }),
  listCouponRedemptions: endpoint(routes.listCouponRedemptions, {
    tags: ['admin'],
    summary: 'Codes used in paid checkouts, most used first, a page at a time (`next` → `before`)',
    query: couponRedemptionsQuerySchema,
    status: 200,
    response: couponRedemptionsSchema,
  }),
  listRedemptionEmails: endpoint(routes.listRedemptionEmails, {
    tags: ['admin'],
    summary: "One code's customers by e-mail with their count of uses, a page at a time (`next` → `after`)",
    params: redemptionEmailsParamsSchema,
    query: redemptionEmailsQuerySchema,
    status: 200,
    response: redemptionEmailsSchema,
  }),
  // CSV (text/csv), streamed: the whole list, however long.
  downloadRedemptionEmails: endpoint(routes.downloadRedemptionEmails, {
    tags: ['admin'],
    summary: "One code's customers by e-mail with their count of uses, as a CSV file",
    params: redemptionEmailsParamsSchema,
    status: 200,
    response: z.string(),
  }),
  getCouponOptions: endpoint(routes.getCouponOptions, {
    tags: ['admin'],
    summary: 'The durations and products a coupon can have',
    status: 200,
    response: couponOptionsSchema,
  }),
  createCoupon: endpoint(routes.createCoupon, {
    tags: ['admin'],
    summary: 'Create a coupon and its promo code (at Stripe too, in the same step)',
    body: createCouponRequestSchema,
    status: 200,
    response: couponMessageResponseSchema,
  }),
  deleteCoupon: endpoint(routes.deleteCoupon, {
    tags: ['admin'],
    summary: 'Delete a coupon and its promo codes (at Stripe too); their redemptions are kept',
    params: couponIdParamsSchema,
    status: 200,
    response: couponMessageResponseSchema,
  }),
  togglePromoCode: endpoint(routes.togglePromoCode, {
    tags: ['admin'],
    summary: 'Switch a promo code on or off (at Stripe too)',
    params: promoCodeIdParamsSchema,
    body: toggleCouponRequestSchema,
    status: 200,
    response: couponMessageResponseSchema,
  }),
};
