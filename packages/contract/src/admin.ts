import { z } from 'zod';
import { featureFlagSchema } from './catalogue.ts';
import { formatMoney } from './money.ts';
import { counted, plural } from './plurals.ts';
import { PRODUCT_IDS } from './products.ts';

/**
 * The admin page's tabs (spec section 2 'Admin') as kept in `?tab=` and named by alerts; aliases lead to the same tab.
 * Their labels are the web app's (features/admin/admin-tabs.ts).
 */
export const ADMIN_TAB_VALUES = [
  'inventory',
  'custom_ordering',
  'active_coupons',
  'coupon_redemptions',
  'pk1_inventory_list',
  'audit_log',
] as const;
export type AdminTab = (typeof ADMIN_TAB_VALUES)[number];
const TAB_ALIASES: Record<string, AdminTab> = { custom: 'custom_ordering', coupons: 'active_coupons' };

/** The tab a `?tab=` value names: its own value, an alias, or the default (inventory). */
export function adminTabOf(value: string | null | undefined): AdminTab {
  if (!value) return 'inventory';
  const aliased = TAB_ALIASES[value];
  if (aliased) return aliased;
  return ADMIN_TAB_VALUES.find((tab) => tab === value) ?? 'inventory';
}

/** The two static pools an administrator manages: PK1 (the spec's) and Elite ISP (the same calls under `isp`). */
export const IP_POOLS = { pk1: 'pk1_isp_proxies', isp: 'isp_proxies' } as const;
export type IpPool = keyof typeof IP_POOLS;
export const ipPoolSchema = z.enum(['pk1', 'isp'], { error: 'The pool is pk1 or isp.' });
/** The pool in an address: /api/admin/stocks/{pool}, /api/admin/ips/{pool}/subnets. */
export const ipPoolParamsSchema = z.object({ pool: ipPoolSchema });

export const adminMessages = {
  fetchFeaturesFailed: 'Failed to fetch features',
  fetchResidentialFailed: 'Failed to fetch residential stocks',
  fetchPk1Failed: 'Failed to fetch PK1 stocks',
  fetchSubnetsFailed: 'Failed to fetch PK1 subnets',
  uploadFailed: 'Failed to upload PK1 IPs',
  uploadFailedToast: 'Upload Failed',
  swapFailed: 'Failed to swap subnet IPs',
  swapFailedToast: 'Swap Failed',
  toggleFailed: 'Failed to toggle feature',
  toggleFailedToast: 'Error: Failed to update feature',
  swapped: 'IPs Swapped Successfully',
  /** What a swap did, after the title 'IPs Swapped Successfully' (the API's message) or under it (the toast). */
  swapDetail: (swapped: number, subnet: string, delivered: number) =>
    `${swapped} IPs of ${subnet} have new endpoints${delivered > 0 ? `; ${counted(delivered, 'waiting order', 'waiting orders')} delivered` : ''}.`,
  emptySwap: 'Please enter at least one endpoint',
  swapCountMismatch: (n: number, m: number) => `Number of endpoints (${n}) must match the subnet's IP count (${m})`,
  unknownSubnet: 'This subnet has no IPs in this pool.',
  endpointsTaken: (endpoints: string[]) =>
    `These endpoints are already in the pool: ${endpoints.slice(0, 5).join(', ')}${endpoints.length > 5 ? ', …' : ''}`,
  duplicateEndpoints: 'The same IP:PORT appears more than once in the list.',
  unknownFeature: (name: string) => `There is no feature named "${name}".`,
  limitBelowSold: (soldMb: number) =>
    `The limit cannot be below the data already sold (${soldMb.toLocaleString('en-US')} MB).`,
} as const;

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
});
export type ResidentialStock = z.infer<typeof residentialStockSchema>;

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

/**
 * Spec section 3 'PK1 stock' (and the same for Elite ISP). `usagePercentage` is the part of the pool that cannot be sold
 * now (sold or burnt); `recycles` are the burnt IPs waiting for their subnet to be swapped.
 */
export const ipStockSchema = z.object({
  totalIps: z.number().int(),
  soldIps: z.number().int(),
  availableIps: z.number().int(),
  burntIps: z.number().int(),
  usagePercentage: z.number(),
  recycles: z.array(z.object({ ip: z.string() })),
});
export type IpStock = z.infer<typeof ipStockSchema>;

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
export const subnetsDataSchema = z.object({
  totalSubnets: z.number().int(),
  totalIps: z.number().int(),
  subnets: z.array(subnetSchema),
});
export type SubnetsData = z.infer<typeof subnetsDataSchema>;
/**
 * `?ips=false` leaves each subnet's `ips` empty (the admin page loads a subnet's IPs when its card opens);
 * `?subnet=…` answers that one subnet.
 */
export const subnetsQuerySchema = z.object({
  ips: z.enum(['true', 'false'], { error: 'ips is true or false.' }).default('true'),
  subnet: z.string().trim().min(1).max(50).optional(),
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

/** File name of a subnet's endpoints (spec section 2): slashes replaced by underscores, plus _endpoints.txt. */
export function subnetEndpointsFileName(subnet: string): string {
  return `${subnet.replaceAll('/', '_')}_endpoints.txt`;
}

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
export const AUDIT_PAGE_SIZE = 25;
/** Far beyond any log this shop keeps (2.5 million entries), and small enough for an offset. */
const AUDIT_PAGE_MAX = 100_000;
export const auditLogQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page is a number from 1.' })
    .int('page is a whole number.')
    .min(1, 'page is a number from 1.')
    .max(AUDIT_PAGE_MAX, `page is a number from 1 to ${AUDIT_PAGE_MAX}.`)
    .default(1),
});
export const auditLogSchema = z.object({
  entries: z.array(auditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditLog = z.infer<typeof auditLogSchema>;

/** Spec section 5 'Fulfil upload' and 'Custom order', and section 10's admin messages. */
export const customOrderMessages = {
  enterEmail: 'Please enter an email address',
  userNotFound: 'Failed to find user. Please check the email and try again.',
  userNotFoundToast: 'User Not Found',
  fetchUserFailed: 'Failed to fetch user',
  searchFirst: 'Please search for a user first',
  selectType: 'Please select a proxy type',
  quantityRange: `The quantity of a custom order is ${1} to ${1000}.`,
  createFailed: 'Submission Failed: Failed to create custom order. Please try again.',
  checkoutLinkFailed: 'Failed to create checkout link',
  emptyFulfil: 'Please enter proxies to upload',
  missingOrderOrUser: 'Missing order or user information',
  quantityMismatch: (quantity: number, received: number) =>
    `Quantity Mismatch: Expected exactly ${quantity} proxies but received ${received}. Please provide ${quantity} proxies to match the order quantity.`,
  invalidFormat: (count: number) =>
    `Invalid Proxy Format: Found ${count} invalid proxy format(s). Expected format: ip:port:username:password or ip:port`,
  orderNotFound: 'Order not found',
  noValidProxies: 'No valid proxies found',
  notPaid: 'This custom order is not paid yet: it can be fulfilled once the customer has paid.',
  alreadyFulfilled: 'This custom order has already been fulfilled.',
  proxiesTaken: (endpoints: string[]) =>
    `These proxies are already in the pool: ${endpoints.slice(0, 5).join(', ')}${endpoints.length > 5 ? ', …' : ''}`,
  fulfilFailed: 'Failed to fulfill order',
  uploadFailedToast: 'Upload Failed',
  refreshFailed: 'Failed to refresh orders',
} as const;

export const CUSTOM_ORDER_MAX = 1000;

export interface FulfilProxy {
  ip: string;
  port: number;
  username: string;
  password: string;
}

const FULFIL_LINE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})(?::([^:\s]+):([^:\s]+))?$/;

/**
 * Spec section 5 'Fulfil upload': `ip:port` or `ip:port:username:password` per line (blank lines ignored), each octet 0 to
 * 255, port 1 to 65535, username and password non-empty; exactly as many lines as the order's quantity.
 */
export function parseFulfilLines(
  lines: readonly string[],
  quantity: number,
): { proxies: FulfilProxy[] } | { error: string } {
  const filled = lines.map((line) => line.trim()).filter((line) => line !== '');
  if (filled.length === 0) return { error: customOrderMessages.emptyFulfil };
  if (filled.length !== quantity) return { error: customOrderMessages.quantityMismatch(quantity, filled.length) };
  const proxies: FulfilProxy[] = [];
  let invalid = 0;
  for (const line of filled) {
    const match = FULFIL_LINE.exec(line);
    const octets = match ? match.slice(1, 5).map(Number) : [];
    const port = match ? Number(match[5]) : 0;
    if (!match || octets.some((octet) => octet > 255) || port < 1 || port > 65_535) {
      invalid += 1;
      continue;
    }
    proxies.push({ ip: octets.join('.'), port, username: match[6] ?? '', password: match[7] ?? '' });
  }
  if (invalid > 0) return { error: customOrderMessages.invalidFormat(invalid) };
  if (proxies.length === 0) return { error: customOrderMessages.noValidProxies };
  return { proxies };
}

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

/** The longest a repeating coupon lasts: ten years of monthly renewals. */
export const COUPON_MONTHS_MAX = 120;
export const COUPON_MAX_REDEMPTIONS = 1_000_000;
export const COUPON_NAME_MAX = 100;
/** Stripe takes amounts of at most eight digits ($999,999.99); the column is a 32-bit integer of cents. */
export const COUPON_AMOUNT_OFF_MAX_CENTS = 99_999_999;

/** Spec section 5 'Coupon form' and section 10 'Coupons'. */
export const couponMessages = {
  codeRequired: 'Coupon code is required',
  codeTooLong: 'Coupon code must be less than or equal to 15 characters',
  codeCharacters: 'A coupon code has letters, digits, dashes and underscores only.',
  nameTooShort: 'Coupon name must be at least 3 characters',
  nameTooLong: `Coupon name must be at most ${COUPON_NAME_MAX} characters`,
  monthsRequired: 'Duration in months is required for repeating coupons',
  amountAboveZero: 'Amount off must be greater than 0',
  percentAboveZero: 'Percent off must be greater than 0',
  percentAtMost100: 'Percent off cannot exceed 100',
  productRequired: 'Must select at least one product',
  maxRedemptionsMin: 'Max redemptions must be at least 1',
  maxRedemptionsMax: `Max redemptions can be at most ${COUPON_MAX_REDEMPTIONS.toLocaleString('en-US')}`,
  monthsMax: `A repeating coupon lasts at most ${COUPON_MONTHS_MAX} months`,
  amountTooLarge: `Amount off cannot exceed ${formatMoney(COUPON_AMOUNT_OFF_MAX_CENTS, 'usd')}`,
  percentWhole: 'Percent off is a whole number.',
  foreverAmount: 'A fixed-amount coupon cannot last forever: choose once or repeating.',
  codeTaken: 'This coupon code already exists.',
  fetchFailed: 'Failed to fetch Stripe coupons',
  fetchRedemptionsFailed: 'Failed to fetch coupon redemption data',
  fetchOptionsFailed: 'Failed to fetch coupon options',
  createFailed: 'Failed to create coupon',
  deleteFailed: 'Failed to delete coupon',
  toggleFailed: 'Failed to toggle coupon',
  created: 'Coupon created!',
  /** A deleted coupon's redemptions are kept (docs/decisions/2026-11-25-coupon-delete.md). */
  deleted: (name: string, redemptions: number) =>
    redemptions === 0
      ? `Coupon ${name} deleted.`
      : `Coupon ${name} deleted. Its ${plural(redemptions, 'redemption stays', `${redemptions} redemptions stay`)} listed under Coupon Redemptions.`,
  couponNotFound: 'This coupon does not exist.',
  promoNotFound: 'This promo code does not exist.',
} as const;

export const COUPON_DURATIONS = [
  { value: 'once', label: 'Once' },
  { value: 'repeating', label: 'Repeating' },
  { value: 'forever', label: 'Forever' },
] as const;

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
 * can appear twice (`promoCodeId` tells them apart).
 */
export const couponRedemptionSchema = z.object({
  couponCode: z.string(),
  totalRedemptions: z.number().int(),
  uniqueUsers: z.number().int(),
  redemptionsByEmail: z.array(z.object({ email: z.string(), count: z.number().int() })),
  promoCodeId: z.string(),
  percentOff: z.number().nullable(),
  amountOff: z.number().nullable(),
  currency: z.string(),
  deletedAt: z.string().nullable(),
});
export type CouponRedemption = z.infer<typeof couponRedemptionSchema>;
export const couponRedemptionsSchema = z.object({
  coupons: z.array(couponRedemptionSchema),
  totalCoupons: z.number().int(),
});

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
