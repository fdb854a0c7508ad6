// The zod schemas of admin.ts: what the server validates and serialises, and the API reference; the web app takes their
// types, and its forms check with their request schema in a chunk of their own
// (docs/decisions/2026-11-29-forms-check-their-schema.md).
import { z } from 'zod';
import {
  AUDIT_ACTIONS,
  adminMessages,
  COUPON_AMOUNT_OFF_MAX_CENTS,
  COUPON_MAX_REDEMPTIONS,
  COUPON_MONTHS_MAX,
  COUPON_NAME_MAX,
  CUSTOM_ORDER_MAX,
  couponMessages,
  customOrderMessages,
  SUBNET_STATES,
} from '../admin.ts';
import { knownTimeZone } from '../dates.ts';
import { PRODUCT_IDS } from '../products.ts';
import { featureFlagSchema } from './catalogue.ts';

export const ipPoolSchema = z.enum(['pk1', 'isp'], { error: 'The pool is pk1 or isp.' });

/** The pool in an address: /api/admin/stocks/{pool}, /api/admin/ips/{pool}/subnets. */
export const ipPoolParamsSchema = z.object({ pool: ipPoolSchema });

/** POST /api/admin/features: the whole list in, the whole list out (spec section 7). */
export const updateFeaturesRequestSchema = z
  .array(featureFlagSchema, { error: 'Send the whole feature list: [{ featureName, isEnabled }].' })
  .min(1, 'Send the whole feature list: [{ featureName, isEnabled }].')
  .max(PRODUCT_IDS.length * 4);

/** Spec section 3 'Residential stock': all in MB (1000 MB to the GB in the admin's view). */
export const residentialStockSchema = z.object({
  bandwidthUsed: z.number(),
  bandwidthLimit: z.number(),
  bandwidthAvailable: z.number(),
  usagePercentage: z.number(),
  /** MB the residential gateway has carried for all accounts together (metered; 1 MB = 1024 KB of the accounts). */
  bandwidthCarried: z.number(),
  /** Automatic top-ups this calendar month (UTC): the sales they made and the payments that failed. */
  topUpsThisMonth: z.object({
    paid: z.number().int(),
    paidCents: z.number().int(),
    failed: z.number().int().describe('Failed or needing the customer (3-D Secure)'),
    currency: z.string(),
  }),
});
export type ResidentialStock = z.infer<typeof residentialStockSchema>;

/** The customers who used the most residential data this calendar month (UTC), most first. */
export const topResidentialCustomersSchema = z.object({
  month: z.string().describe('The month counted, YYYY-MM (UTC)'),
  customers: z.array(
    z.object({ userId: z.string(), email: z.string(), usedInKb: z.number().int().describe('Metered this month') }),
  ),
});
export type TopResidentialCustomers = z.infer<typeof topResidentialCustomersSchema>;

export const setResidentialLimitRequestSchema = z.object({
  bandwidthLimit: z
    .number({ error: 'The limit is a number of MB, such as 500000 for 500 GB.' })
    .int('The limit is a whole number of MB.')
    .min(0, 'The limit cannot be negative.')
    .max(1_000_000_000_000, 'The limit is at most 1,000,000,000,000 MB.'),
});

export const setResidentialLimitResponseSchema = residentialStockSchema.extend({
  message: z.string(),
  delivered: z.number().int(),
});

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** A subnet as the pools write it (203.0.113.0/24), which the database reads as a network. */
const SUBNET = new RegExp(`^${OCTET}(\\.${OCTET}){3}/(3[0-2]|[12]?\\d)$`);
/** A burnt IP's position: its address and port. */
export const BURNT_POSITION = new RegExp(`^${OCTET}(\\.${OCTET}){3}:\\d{1,5}$`);
const ORDER_ID = /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/;

/**
 * Spec section 3 'PK1 stock' (and the same for Elite ISP). `usagePercentage` is the part of the pool that cannot be sold
 * now (sold or burnt); `recycles` are the burnt IPs waiting for their subnet to be swapped, BURNT_IPS_PAGE_SIZE at a time
 * in address order (`recyclesNext` gives the next page as `after`; the whole list is the burnt.txt download).
 */
export const ipStockSchema = z.object({
  totalIps: z.number().int(),
  soldIps: z.number().int(),
  availableIps: z.number().int(),
  burntIps: z.number().int(),
  usagePercentage: z.number(),
  recycles: z.array(z.object({ ip: z.string() })),
  recyclesNext: z.string().nullable(),
});
export type IpStock = z.infer<typeof ipStockSchema>;

export const ipStockQuerySchema = z.object({
  after: z
    .string()
    .regex(BURNT_POSITION, 'after is the position a previous page gave as recyclesNext (IP:PORT).')
    .optional(),
});

/** Spec section 3 'PK1 subnets data'. `needRotated` means burnt. */
export const subnetIpSchema = z.object({
  ip: z.string(),
  endpoint: z.string(),
  isAssigned: z.boolean(),
  assignedToEntityId: z.string().nullable(),
  needRotated: z.boolean(),
});
export type SubnetIp = z.infer<typeof subnetIpSchema>;

export const subnetSchema = z.object({
  subnet: z.string(),
  totalIps: z.number().int(),
  assignedIps: z.number().int(),
  unassignedIps: z.number().int(),
  burntIps: z.number().int(),
  ips: z.array(subnetIpSchema),
});
export type Subnet = z.infer<typeof subnetSchema>;

/**
 * Spec section 3 'PK1 subnets data', a page at a time: the totals are the whole pool's, whatever the filters; `subnets`
 * are SUBNETS_PAGE_SIZE of those matching, in network order, and `next` the position of the page after (null on the last).
 */
export const subnetsDataSchema = z.object({
  totalSubnets: z.number().int(),
  totalIps: z.number().int(),
  assignedIps: z.number().int(),
  burntIps: z.number().int(),
  availableIps: z.number().int(),
  subnets: z.array(subnetSchema),
  next: z.string().nullable(),
});
export type SubnetsData = z.infer<typeof subnetsDataSchema>;

const SEARCH_WORDS = 'Search by a subnet or an IP, such as 203.0.113 or 203.0.113.7.';
const CUSTOMER_WORDS = "Search by the customer's e-mail or an order id.";

/**
 * GET /api/admin/ips/{pool}/subnets: a page of subnets with their counts, after the position `after`, narrowed by a
 * subnet or IP (`search`), a `state` some of its IPs are in, and a `customer` (e-mail or order id) holding some of them.
 * `subnet=…` answers that one subnet with its IPs (those matching state and customer), `ips=false` without them. IPs
 * never come with a page: a page of full subnets is larger than an answer should be.
 */
export const subnetsQuerySchema = z
  .object({
    after: z.string().regex(SUBNET, 'after is the position a previous page gave as next.').optional(),
    search: z
      .string()
      .trim()
      .max(50, SEARCH_WORDS)
      .regex(/^[\d./]*$/, SEARCH_WORDS)
      .optional(),
    state: z.enum(SUBNET_STATES, { error: `state is one of ${SUBNET_STATES.join(', ')}.` }).optional(),
    customer: z
      .string()
      .trim()
      .toLowerCase()
      .max(254, CUSTOMER_WORDS)
      .refine((text) => text === '' || text.includes('@') || ORDER_ID.test(text), CUSTOMER_WORDS)
      .optional(),
    subnet: z.string().trim().regex(SUBNET, adminMessages.unknownSubnet).optional(),
    ips: z.enum(['true', 'false'], { error: 'ips is true or false.' }).optional(),
  })
  .refine((query) => !(query.ips === 'true' && query.subnet === undefined), {
    message: 'IPs come one subnet at a time: add subnet=… (a page of subnets has their counts).',
    path: ['ips'],
  });

export const swapSubnetRequestSchema = z.object({
  subnet: z.string().trim().min(1, 'Choose the subnet to swap.').max(50, adminMessages.unknownSubnet),
  newEndpoints: z
    .array(z.string().max(300, 'A line has at most 300 characters.'))
    .max(65_536, 'At most 65,536 lines in one swap.'),
});

export const swapSubnetResponseSchema = z.object({
  message: z.string(),
  swapped: z.number().int(),
  delivered: z.number().int(),
});

/** One recorded administrator change: who, when, what, and its figures. */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A day of the calendar (not 2026-02-30), which the database reads as it is. */
const isDay = (text: string) =>
  DAY.test(text) && text >= '0001' && !Number.isNaN(Date.parse(text)) && new Date(text).toISOString().startsWith(text);
/** An entry's position: its time at the database's precision (microseconds) and its id. */
export const AUDIT_CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{6}Z~[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/;
/** A real time (not 2026-13-45) with an id of the right form: the database reads both as they are. */
const isAuditPosition = (text: string) => {
  const time = AUDIT_CURSOR.exec(text)?.[1];
  return time !== undefined && time >= '0001' && new Date(`${time}Z`).toISOString().startsWith(time);
};

/** GET /api/admin/audit-log: the page before a position, by action, administrator and days in a time zone. */
export const auditLogQuerySchema = z
  .object({
    before: z
      .string()
      .refine((text) => isAuditPosition(text), 'before is the position a previous page gave as next.')
      .optional(),
    action: z.enum(AUDIT_ACTIONS, { error: `action is one of ${AUDIT_ACTIONS.join(', ')}.` }).optional(),
    actor: z.string().trim().toLowerCase().max(254, 'An e-mail has at most 254 characters.').optional(),
    from: z
      .string()
      .refine((text) => isDay(text), 'from is a day: YYYY-MM-DD.')
      .optional(),
    to: z
      .string()
      .refine((text) => isDay(text), 'to is a day: YYYY-MM-DD.')
      .optional(),
    timeZone: z
      .string()
      .optional()
      .refine((zone) => zone === undefined || knownTimeZone(zone) !== undefined, 'timeZone is an IANA time zone.'),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'The first day comes before the last.',
    path: ['to'],
  });

/** A page of entries, newest first; `next` is the position of the page after it, null at the oldest. */
export const auditLogSchema = z.object({
  entries: z.array(auditEntrySchema),
  pageSize: z.number().int(),
  next: z.string().nullable(),
});
export type AuditLog = z.infer<typeof auditLogSchema>;

/** A custom order as the admin's table shows it (spec section 3 'Custom order'). */
export const customOrderSchema = z.object({
  orderId: z.string(),
  productId: z.string(),
  quantity: z.number().int(),
  status: z.enum(['awaiting_payment', 'processing', 'paid', 'fulfilled', 'expired']),
  isPaid: z.boolean(),
  checkoutLink: z.string().nullable(),
  createdAt: z.string(),
});
export type CustomOrder = z.infer<typeof customOrderSchema>;

export const adminUserLookupQuerySchema = z.object({
  email: z
    .string({ error: customOrderMessages.enterEmail })
    .trim()
    .min(1, customOrderMessages.enterEmail)
    .max(254, 'Email must be at most 254 characters'),
});

/** GET /api/admin/users/search?q=: an e-mail or its start, the start of a name, a user id or an order id. */
export const customerSearchQuerySchema = z.object({
  q: z
    .string({ error: customOrderMessages.enterEmail })
    .trim()
    .min(1, customOrderMessages.enterEmail)
    .max(254, 'A search has at most 254 characters'),
});

export const customerMatchSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
});
export type CustomerMatch = z.infer<typeof customerMatchSchema>;

/** At most CUSTOMER_MATCHES_MAX, the exact e-mail first; `more` when others matched too. */
export const customerMatchesSchema = z.object({ matches: z.array(customerMatchSchema), more: z.boolean() });
export type CustomerMatches = z.infer<typeof customerMatchesSchema>;

export const adminUserLookupSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), createdAt: z.string() }),
  customOrders: z.array(customOrderSchema),
});
export type AdminUserLookup = z.infer<typeof adminUserLookupSchema>;

export const customCheckoutRequestSchema = z.object({
  userId: z.string({ error: customOrderMessages.searchFirst }).min(1, customOrderMessages.searchFirst).max(100),
  quantity: z
    .number({ error: customOrderMessages.quantityRange })
    .int(customOrderMessages.quantityRange)
    .min(1, customOrderMessages.quantityRange)
    .max(CUSTOM_ORDER_MAX, customOrderMessages.quantityRange),
  coupon: z
    .string()
    .trim()
    .max(15, 'A coupon code has at most 15 characters.')
    .nullish()
    .transform((code) => (code ? code : undefined)),
});

export const customCheckoutResponseSchema = z.object({ checkoutUrl: z.string() });

export const fulfilRequestSchema = z.object({
  userId: z.string({ error: customOrderMessages.missingOrderOrUser }).min(1, customOrderMessages.missingOrderOrUser),
  orderId: z.uuid({ error: customOrderMessages.missingOrderOrUser }),
  ips: z.array(z.string().max(300), { error: customOrderMessages.emptyFulfil }).max(CUSTOM_ORDER_MAX * 2),
});

export const fulfilResponseSchema = z.object({ customOrders: z.array(customOrderSchema) });

/** Spec section 3 'Coupon' with its promo codes. `created` is in seconds, as Stripe gives it. */
export const adminCouponSchema = z.object({
  id: z.string(),
  name: z.string(),
  percentOff: z.number().nullable(),
  amountOff: z.number().nullable(),
  currency: z.string(),
  duration: z.enum(['once', 'repeating', 'forever']),
  durationInMonths: z.number().nullable(),
  created: z.number().int(),
  products: z.array(z.object({ id: z.string(), name: z.string() })),
  promoCodes: z.array(
    z.object({
      id: z.string(),
      code: z.string(),
      active: z.boolean(),
      timesRedeemed: z.number().int(),
      maxRedemptions: z.number().int().nullable(),
      expiresAt: z.string().nullable(),
    }),
  ),
});
export type AdminCoupon = z.infer<typeof adminCouponSchema>;

export const adminCouponListSchema = z.object({ coupons: z.array(adminCouponSchema) });

/**
 * Spec section 3 'Coupon redemption', per promo code, with its coupon's discount and whether the coupon was deleted: a
 * deleted coupon's code stays listed with the discount it gave, and a new coupon may take the same code, so one code
 * can appear twice (`promoCodeId` tells them apart). Its e-mails come a page at a time from their own call
 * (docs/decisions/2026-11-29-redemptions-by-page.md).
 */
export const couponRedemptionSchema = z.object({
  couponCode: z.string(),
  totalRedemptions: z.number().int(),
  uniqueUsers: z.number().int(),
  promoCodeId: z.string(),
  percentOff: z.number().nullable(),
  amountOff: z.number().nullable(),
  currency: z.string(),
  deletedAt: z.string().nullable(),
});
export type CouponRedemption = z.infer<typeof couponRedemptionSchema>;

/** A position in a list: a page's `next`, given back as `before` (or `after`) for the page that follows it. */
const position = (name: string) =>
  z
    .string()
    .min(1, `${name} is the position a previous page gave as next.`)
    .max(300, `${name} is the position a previous page gave as next.`);

/** A code's position: its uses (at most a PostgreSQL integer) and its id. */
export const REDEMPTIONS_POSITION = /^(\d{1,10})~[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/;
export const couponRedemptionsQuerySchema = z.object({
  before: position('before')
    .refine(
      (text) => Number(REDEMPTIONS_POSITION.exec(text)?.[1] ?? Number.NaN) <= 2_147_483_647,
      'before is the position a previous page gave as next.',
    )
    .optional(),
});

/** Codes used in paid checkouts, most used first, REDEMPTIONS_PAGE_SIZE a page; `next` null on the last. */
export const couponRedemptionsSchema = z.object({
  coupons: z.array(couponRedemptionSchema),
  totalCoupons: z.number().int(),
  next: z.string().nullable(),
});

export const redemptionEmailsParamsSchema = z.object({
  promoCodeId: z.uuid({ error: couponMessages.promoNotFound }),
});
export const redemptionEmailsQuerySchema = z.object({ after: position('after').optional() });

/** One code's customers by e-mail, alphabetically, REDEMPTION_EMAILS_PAGE_SIZE a page. */
export const redemptionEmailsSchema = z.object({
  emails: z.array(z.object({ email: z.string(), count: z.number().int() })),
  next: z.string().nullable(),
});
export type RedemptionEmails = z.infer<typeof redemptionEmailsSchema>;

export const couponOptionsSchema = z.object({
  durationOptions: z.array(z.object({ value: z.string(), label: z.string() })),
  products: z.array(z.object({ id: z.string(), name: z.string(), active: z.boolean() })),
});
export type CouponOptions = z.infer<typeof couponOptionsSchema>;

/** Spec section 3 'Create coupon payload', with the rules of section 5 on the server as in the form. */
export const createCouponRequestSchema = z
  .object({
    code: z
      .string({ error: couponMessages.codeRequired })
      .trim()
      .min(1, couponMessages.codeRequired)
      .max(15, couponMessages.codeTooLong)
      .regex(/^[A-Za-z0-9_-]*$/, couponMessages.codeCharacters),
    name: z
      .string({ error: couponMessages.nameTooShort })
      .trim()
      .min(3, couponMessages.nameTooShort)
      .max(COUPON_NAME_MAX, couponMessages.nameTooLong),
    duration: z.enum(['once', 'repeating', 'forever'], { error: 'Choose once, repeating or forever.' }),
    discountType: z.enum(['percent_off', 'amount_off'], { error: 'Choose a percentage or a fixed amount.' }),
    appliesToProducts: z
      .array(z.enum(PRODUCT_IDS, { error: couponMessages.productRequired }), { error: couponMessages.productRequired })
      .min(1, couponMessages.productRequired),
    durationInMonths: z
      .number()
      .int(couponMessages.monthsRequired)
      .min(1, couponMessages.monthsRequired)
      .max(COUPON_MONTHS_MAX, couponMessages.monthsMax)
      .nullish(),
    maxRedemptions: z
      .number()
      .int(couponMessages.maxRedemptionsMin)
      .min(1, couponMessages.maxRedemptionsMin)
      .max(COUPON_MAX_REDEMPTIONS, couponMessages.maxRedemptionsMax)
      .nullish(),
    amountOff: z
      .number()
      .int('The amount off is in whole cents.')
      .min(1, couponMessages.amountAboveZero)
      .max(COUPON_AMOUNT_OFF_MAX_CENTS, couponMessages.amountTooLarge)
      .nullish(),
    percentOff: z
      .number()
      .gt(0, couponMessages.percentAboveZero)
      .max(100, couponMessages.percentAtMost100)
      .int(couponMessages.percentWhole)
      .nullish(),
  })
  .superRefine((body, ctx) => {
    const add = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (body.duration === 'repeating' && !body.durationInMonths) add(couponMessages.monthsRequired, 'durationInMonths');
    if (body.discountType === 'amount_off') {
      // The range is the field's own check; here only that the chosen kind of discount is there.
      if (body.amountOff == null) add(couponMessages.amountAboveZero, 'amountOff');
      if (body.duration === 'forever') add(couponMessages.foreverAmount, 'duration');
    } else if (body.percentOff == null) {
      add(couponMessages.percentAboveZero, 'percentOff');
    }
  });
export type CreateCouponRequest = z.input<typeof createCouponRequestSchema>;

export const toggleCouponRequestSchema = z.object({ active: z.boolean({ error: 'Send { active: true } or false.' }) });

export const couponMessageResponseSchema = z.object({ message: z.string() });

/** DELETE /api/admin/coupons/{couponId}: a malformed id is the same 'not found' as an unknown one. */
export const couponIdParamsSchema = z.object({ couponId: z.uuid({ error: couponMessages.couponNotFound }) });

/** PATCH /api/admin/coupons/{promoCodeId}/toggle. */
export const promoCodeIdParamsSchema = z.object({ promoCodeId: z.uuid({ error: couponMessages.promoNotFound }) });
