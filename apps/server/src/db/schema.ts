import { type AlertKind, type ProductId, REPLACEMENT_REASONS } from '@storefront/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** The catalogue (spec section 1). Unit prices mirror the configuration at every start. */
export const products = pgTable('products', {
  id: text('id').$type<ProductId>().primaryKey(),
  name: text('name').notNull(),
  unit: text('unit', { enum: ['ip_month', 'gb'] }).notNull(),
  unitPriceCents: integer('unit_price_cents').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One purchase switch per product, named after the product id (spec section 3 'Feature flag'). */
export const featureFlags = pgTable('feature_flags', {
  featureName: text('feature_name').primaryKey(),
  isEnabled: boolean('is_enabled').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The static IP pools (Elite ISP and PK1). Available = not assigned to an order and not burnt.
 * `needRotated` is the burnt flag: the IP served an order that ended and waits for its subnet to be swapped.
 */
export const proxyIps = pgTable(
  'proxy_ips',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: text('product_id')
      .$type<ProductId>()
      .notNull()
      .references(() => products.id),
    ip: text('ip').notNull(),
    port: integer('port').notNull(),
    username: text('username').notNull(),
    password: text('password').notNull(),
    endpoint: text('endpoint').notNull(),
    subnet: text('subnet').notNull(),
    assignedOrderId: uuid('assigned_order_id'),
    needRotated: boolean('need_rotated').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('proxy_ips_ip_port_key').on(table.ip, table.port),
    // The delivery's claim reads this index in its own order (oldest first, then id) and stops after `quantity` rows.
    index('proxy_ips_available_idx')
      .on(table.productId, table.createdAt, table.id)
      .where(sql`${table.assignedOrderId} is null and ${table.needRotated} = false`),
    index('proxy_ips_subnet_idx').on(table.subnet),
    // An order's proxies in the order the customer sees them (GET /api/orders, list links): read, never sorted.
    index('proxy_ips_order_idx')
      .on(table.assignedOrderId, sql`(${table.ip}::inet)`, table.port)
      .where(sql`${table.assignedOrderId} is not null`),
    // The stock card's burnt IPs, a page at a time in address order: burnt IPs are few beside the pool.
    index('proxy_ips_burnt_idx')
      .on(table.productId, sql`(${table.ip}::inet)`, table.port)
      .where(sql`${table.needRotated}`),
    check('proxy_ips_port_range', sql`${table.port} between 1 and 65535`),
  ],
);

/**
 * The IP pools' counts per product, kept by triggers on proxy_ips (migration 0021) in the transaction of every statement
 * that adds, removes or moves an IP, so pricing, the stock cards, alerts and metrics never count the pool.
 * Available = neither assigned nor burnt (an IP may be both assigned and burnt, so it is kept, not derived).
 */
export const proxyIpCounts = pgTable('proxy_ip_counts', {
  productId: text('product_id')
    .$type<ProductId>()
    .primaryKey()
    .references(() => products.id),
  total: integer('total').notNull().default(0),
  assigned: integer('assigned').notNull().default(0),
  burnt: integer('burnt').notNull().default(0),
  available: integer('available').notNull().default(0),
});

/**
 * The same counts per /24 subnet, kept by triggers on proxy_ips (migration 0024) like the pool's: the IP inventory pages,
 * filters and totals its subnets from these rows instead of grouping a million IPs. A subnet emptied keeps a row of zeros.
 */
export const proxySubnetCounts = pgTable(
  'proxy_subnet_counts',
  {
    productId: text('product_id')
      .$type<ProductId>()
      .notNull()
      .references(() => products.id),
    subnet: text('subnet').notNull(),
    total: integer('total').notNull().default(0),
    assigned: integer('assigned').notNull().default(0),
    burnt: integer('burnt').notNull().default(0),
    available: integer('available').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.productId, table.subnet] }),
    // The inventory's order: subnets as networks (10.0.2.0/24 before 10.0.10.0/24), read a page at a time.
    index('proxy_subnet_counts_network_idx').on(table.productId, sql`(${table.subnet}::cidr)`),
  ],
);

/** The residential data pool (one row). Megabytes, as the admin view shows them (spec section 3 'Residential stock'). */
export const residentialPool = pgTable(
  'residential_pool',
  {
    id: integer('id').primaryKey().default(1),
    bandwidthLimitMb: bigint('bandwidth_limit_mb', { mode: 'number' }).notNull().default(0),
    bandwidthUsedMb: bigint('bandwidth_used_mb', { mode: 'number' }).notNull().default(0),
    /** Every account's data carried, in KB: kept by triggers on residential_accounts (migration 0026). */
    carriedKb: bigint('carried_kb', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('residential_pool_single_row', sql`${table.id} = 1`),
    check('residential_pool_non_negative', sql`${table.bandwidthLimitMb} >= 0 and ${table.bandwidthUsedMb} >= 0`),
  ],
);

/*
 * Accounts (better-auth's tables with the admin and two-factor plugins; spec section 3 'User' and 'Session').
 * Ids are UUIDs generated by better-auth; e-mails are stored lower case.
 */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    role: text('role').notNull().default('user'),
    banned: boolean('banned').default(false),
    banReason: text('ban_reason'),
    banExpires: timestamp('ban_expires', { withTimezone: true }),
    twoFactorEnabled: boolean('two_factor_enabled').default(false),
  },
  (table) => [
    // The admin's customer search by the start of an e-mail or a name (LIKE 'prefix%' in any collation).
    index('users_email_pattern_idx').on(table.email.op('text_pattern_ops')),
    index('users_name_pattern_idx').on(sql`lower(${table.name}) text_pattern_ops`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    impersonatedBy: text('impersonated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The job prunes expired sessions by their expiry.
  (table) => [index('sessions_user_id_idx').on(table.userId), index('sessions_expires_idx').on(table.expiresAt)],
);

/** Sign-in methods of a user: 'credential' (password hash) or a social provider's account. */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('accounts_user_id_idx').on(table.userId)],
);

/** E-mail confirmation and password-reset tokens, and OAuth state. */
export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('verifications_identifier_idx').on(table.identifier),
    index('verifications_expires_idx').on(table.expiresAt),
  ],
);

/** TOTP secret and backup codes (both encrypted by better-auth) of a user with two-factor sign-in. */
export const twoFactors = pgTable(
  'two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verified: boolean('verified').default(true),
    failedVerificationCount: integer('failed_verification_count').default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (table) => [index('two_factors_user_id_idx').on(table.userId), index('two_factors_secret_idx').on(table.secret)],
);

export const ORDER_STATUSES = ['awaiting_payment', 'processing', 'delivered', 'expired'] as const;

/**
 * Coupons (spec section 3 'Coupon'): the database is the source of truth; with Stripe the coupon and its promotion codes
 * are mirrored there (provider ids) the first time a checkout uses them. A deleted coupon is kept, marked deleted with
 * its codes, so that its redemptions and the orders that used it still name its code and discount
 * (docs/decisions/2026-11-25-coupon-delete.md).
 */
export const coupons = pgTable(
  'coupons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    currency: text('currency').notNull().default('usd'),
    duration: text('duration', { enum: ['once', 'repeating', 'forever'] }).notNull(),
    durationInMonths: integer('duration_in_months'),
    providerCouponId: text('provider_coupon_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by an administrator's delete: gone from the console's list, kept for its redemptions and orders. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    check(
      'coupons_one_discount',
      sql`(${table.percentOff} between 1 and 100 and ${table.amountOffCents} is null) or (${table.percentOff} is null and ${table.amountOffCents} > 0)`,
    ),
    check(
      'coupons_repeating_months',
      sql`(${table.duration} = 'repeating') = (${table.durationInMonths} is not null and ${table.durationInMonths} >= 1)`,
    ),
  ],
);

/** The products a coupon applies to. */
export const couponProducts = pgTable(
  'coupon_products',
  {
    couponId: uuid('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .$type<ProductId>()
      .notNull()
      .references(() => products.id),
  },
  (table) => [primaryKey({ columns: [table.couponId, table.productId] })],
);

/**
 * The codes customers type. Matched without regard to case. A code is deleted with its coupon (its own mark, as a unique
 * index cannot look at another table): it can no longer be used, and a new coupon may take the same code.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    couponId: uuid('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    active: boolean('active').notNull().default(true),
    maxRedemptions: integer('max_redemptions'),
    timesRedeemed: integer('times_redeemed').notNull().default(0),
    /** The customers (e-mails) who used the code, counted as each redemption is recorded (recordRedemption). */
    customers: integer('customers').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    providerPromoCodeId: text('provider_promo_code_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('promo_codes_code_key').on(sql`lower(${table.code})`).where(sql`${table.deletedAt} is null`),
    check('promo_codes_max_redemptions', sql`${table.maxRedemptions} is null or ${table.maxRedemptions} >= 1`),
  ],
);

/**
 * One row per paid order that used a code, with the customer's e-mail (spec section 3 'Coupon redemption'). The sales
 * history: a code with redemptions cannot be removed (restrict); deleting its coupon only marks it.
 */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    promoCodeId: uuid('promo_code_id')
      .notNull()
      .references(() => promoCodes.id, { onDelete: 'restrict' }),
    orderId: uuid('order_id')
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A code's customers, alphabetically and counted, read from the index alone.
  (table) => [index('coupon_redemptions_code_email_idx').on(table.promoCodeId, table.email)],
);

/*
 * Orders (spec section 3 'Order'). An order is created awaiting payment at checkout; once paid it is either delivered
 * (ISP/PK1 IPs assigned through proxy_ips.assigned_order_id, or GB added to the residential account) or processing
 * while stock is short. ISP and PK1 orders run until expiration_time (end of the paid month); residential has none.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    productId: text('product_id')
      .$type<ProductId>()
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('awaiting_payment'),
    cancelled: boolean('cancelled').notNull().default(false),
    paymentFailed: boolean('payment_failed').notNull().default(false),
    purchasedAt: timestamp('purchased_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The price when the checkout was created, in cents: unit × quantity − discount = total. */
    unitPriceCents: integer('unit_price_cents').notNull().default(0),
    discountCents: integer('discount_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    /** The code the order used; kept when its coupon is deleted (renewals still apply its discount). */
    promoCodeId: uuid('promo_code_id').references(() => promoCodes.id, { onDelete: 'restrict' }),
    /** Which payment provider holds the checkout, and its ids there. */
    provider: text('provider', { enum: ['sandbox', 'stripe'] }),
    providerCheckoutId: text('provider_checkout_id').unique(),
    providerSubscriptionId: text('provider_subscription_id'),
    providerCustomerId: text('provider_customer_id'),
    checkoutUrl: text('checkout_url'),
    /**
     * Raised by a trigger on proxy_ips (migration 0011) by every statement that adds, removes or changes one of the
     * order's IPs, whichever code path runs it: the key under which an instance may keep the order's endpoint list.
     */
    proxiesVersion: integer('proxies_version').notNull().default(0),
    /** Set by a failed renewal: the IPs stay until then, and the order expires unless a payment arrives. */
    graceEndsAt: timestamp('grace_ends_at', { withTimezone: true }),
    /** The period end whose renewal reminder went out (one reminder per period). */
    remindedFor: timestamp('reminded_for', { withTimezone: true }),
    /**
     * A custom PK1 order an administrator made for this customer (spec section 2 'Custom Ordering'): once paid it waits for
     * the administrator to fulfil it with its own endpoints, and is never served from the pool.
     */
    custom: boolean('custom').notNull().default(false),
    /** Sandbox only: the card chosen on the payment page (renewals charge it too). */
    sandboxCard: text('sandbox_card', { enum: ['ok', 'declined'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('orders_user_id_idx').on(table.userId, table.createdAt),
    index('orders_processing_idx').on(table.productId, table.purchasedAt).where(sql`${table.status} = 'processing'`),
    index('orders_subscription_idx').on(table.providerSubscriptionId),
    index('orders_due_idx').on(table.expiresAt).where(sql`${table.status} in ('delivered', 'processing')`),
    // The orders the renewal reminder has still to tell of their period end: run-jobs.ts writes the same condition.
    index('orders_remind_idx')
      .on(table.expiresAt)
      .where(
        sql`${table.status} = 'delivered' and not ${table.cancelled} and not ${table.paymentFailed} and ${table.remindedFor} is distinct from ${table.expiresAt}`,
      ),
    // The unpaid checkouts holding a use of a code (coupons.ts, usesTaken).
    index('orders_coupon_hold_idx')
      .on(table.promoCodeId, table.createdAt)
      .where(sql`${table.status} = 'awaiting_payment'`),
    check('orders_quantity_positive', sql`${table.quantity} > 0`),
    check('orders_amounts', sql`${table.totalCents} >= 0 and ${table.discountCents} >= 0`),
  ],
);

/**
 * Order history (spec section 3 'Order history entry'): one row per payment, first payment or renewal, with the
 * provider's invoice. The invoice id is unique, so a repeated event never writes a second entry.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ['checkout', 'renewal'] }).notNull(),
    invoiceId: text('invoice_id').notNull().unique(),
    hostedInvoiceUrl: text('hosted_invoice_url'),
    status: text('status').notNull(),
    amountCents: integer('amount_cents').notNull(),
    discountCents: integer('discount_cents').notNull().default(0),
    currency: text('currency').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('payments_user_idx').on(table.userId, table.paidAt),
    // "Has this order been paid?" at every checkout event, and an order's payments for the admin.
    index('payments_order_idx').on(table.orderId),
  ],
);

/** Every payment-provider event handled, by its id: recorded in the transaction of its effect (exactly-once). */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.eventId] }),
    // The job prunes handled events by their age.
    index('webhook_events_received_idx').on(table.receivedAt),
  ],
);

/** One residential account per customer, created at the first residential purchase (ARCHITECTURE section 4). */
export const residentialAccounts = pgTable('residential_accounts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'restrict' }),
  username: text('username').notNull().unique(),
  password: text('password').notNull(),
  totalKb: bigint('total_kb', { mode: 'number' }).notNull().default(0),
  usedKb: bigint('used_kb', { mode: 'number' }).notNull().default(0),
  /** The total_kb at which the 80 % and the 100 % usage e-mails went out: one of each per purchase level. */
  usageMailed80AtKb: bigint('usage_mailed_80_at_kb', { mode: 'number' }),
  usageMailed100AtKb: bigint('usage_mailed_100_at_kb', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A customer's proxy users: their team or resellers' clients, each with gateway credentials of its own (the account's
 * username, an underscore and the proxy user's name), drawing on the account's residential data within an optional
 * allowance. A deleted proxy user keeps its row (deleted_at) so that its usage stays under its name; its name is free
 * again at once.
 */
export const proxyUsers = pgTable(
  'proxy_users',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => residentialAccounts.userId, { onDelete: 'cascade' }),
    /** Lower-case letters and digits: part of the gateway username, unique in the account among those not deleted. */
    name: text('name').notNull(),
    password: text('password').notNull(),
    note: text('note'),
    paused: boolean('paused').notNull().default(false),
    /** 'none' (draws on the account's balance), 'total' or 'monthly' (starting again on reset_day). */
    allowance: text('allowance', { enum: ['none', 'total', 'monthly'] })
      .notNull()
      .default('none'),
    allowanceKb: bigint('allowance_kb', { mode: 'number' }),
    /** The day of the month (1-28, UTC) a monthly allowance starts again. */
    resetDay: integer('reset_day'),
    /** Everything it carried, in KB (1024 bytes). */
    usedKb: bigint('used_kb', { mode: 'number' }).notNull().default(0),
    /** What it carried since period_start: what a monthly allowance counts (a total one counts used_kb). */
    periodUsedKb: bigint('period_used_kb', { mode: 'number' }).notNull().default(0),
    periodStart: date('period_start', { mode: 'string' }),
    /** Countries its lines may target (ISO codes); empty: every country. */
    countries: text('countries').array().notNull().default(sql`'{}'::text[]`),
    /** Simultaneous connections it may hold through a gateway; null: no limit of its own. */
    maxConnections: integer('max_connections'),
    /**
     * The allowance level and period at which the 80 % and the 100 % usage e-mails went out ('total:<kb>' or
     * 'monthly:<kb>:<period start>'): one of each per allowance and period.
     */
    usageMailed80Key: text('usage_mailed_80_key'),
    usageMailed100Key: text('usage_mailed_100_key'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('proxy_users_live_name_idx').on(table.userId, table.name).where(sql`${table.deletedAt} is null`),
    index('proxy_users_user_idx').on(table.userId, table.createdAt),
    check(
      'proxy_users_allowance_shape',
      sql`(${table.allowance} = 'none' and ${table.allowanceKb} is null and ${table.resetDay} is null)
        or (${table.allowance} = 'total' and ${table.allowanceKb} >= 0 and ${table.resetDay} is null)
        or (${table.allowance} = 'monthly' and ${table.allowanceKb} >= 0 and ${table.resetDay} between 1 and 28)`,
    ),
    check('proxy_users_max_connections', sql`${table.maxConnections} is null or ${table.maxConnections} >= 1`),
  ],
);

/** Every change of a proxy user's allowance, as the customer sees it in its history: when, who, from, to. */
export const proxyUserAllowanceChanges = pgTable(
  'proxy_user_allowance_changes',
  {
    id: text('id').primaryKey(),
    proxyUserId: text('proxy_user_id')
      .notNull()
      .references(() => proxyUsers.id, { onDelete: 'cascade' }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who made it, in words: the customer's e-mail, or an administrator's. */
    changedBy: text('changed_by').notNull(),
    fromAllowance: text('from_allowance', { enum: ['none', 'total', 'monthly'] }).notNull(),
    fromKb: bigint('from_kb', { mode: 'number' }),
    fromResetDay: integer('from_reset_day'),
    toAllowance: text('to_allowance', { enum: ['none', 'total', 'monthly'] }).notNull(),
    toKb: bigint('to_kb', { mode: 'number' }),
    toResetDay: integer('to_reset_day'),
  },
  (table) => [index('proxy_user_allowance_changes_idx').on(table.proxyUserId, table.changedAt, table.id)],
);

/**
 * Authorised IPs: a customer's single addresses (at most 10, canonical spelling) whose connections
 * the residential gateway takes without credentials. An address belongs to one customer at most (the primary key).
 */
export const authorizedIps = pgTable(
  'authorized_ips',
  {
    ip: text('ip').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The proxy user it lets in, or null: the account's main user. */
    proxyUserId: text('proxy_user_id').references(() => proxyUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('authorized_ips_user_id_idx').on(table.userId),
    index('authorized_ips_proxy_user_idx').on(table.proxyUserId),
  ],
);

/**
 * A customer's switches on Settings, kept apart from better-auth's users table; no row means the defaults. Usage
 * e-mails at 80 % and 100 % of residential data are on by default; "only from these IPs" makes the authorised IPs a
 * restriction too (credentials from any other address are refused).
 */
export const customerPreferences = pgTable('customer_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  usageEmails: boolean('usage_emails').notNull().default(true),
  authorizedIpsOnly: boolean('authorized_ips_only').notNull().default(false),
  /** Whether the gateway records the domains of the customer's targets in their usage analytics. */
  recordDomains: boolean('record_domains').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Data a gateway holds for an account and has not yet written to used_kb: a slice taken, by reserve_residential_data()
 * (migration 0027), only out of what neither used_kb nor another lease holds (and, for a proxy user, its allowance), so that several gateways
 * metering one account never carry more than it has between them. Each flush takes what it wrote off its lease and
 * renews it; a gateway that stops deletes its leases, and one that dies leaves them to expire.
 */
export const residentialGatewayLeases = pgTable(
  'residential_gateway_leases',
  {
    userId: text('user_id')
      .notNull()
      .references(() => residentialAccounts.userId, { onDelete: 'cascade' }),
    /** The proxy user whose traffic it is for (its allowance is held to the same way), or '' for the main user. */
    proxyUserId: text('proxy_user_id').notNull().default(''),
    /** The gateway process's own id, new at every start. */
    gatewayId: text('gateway_id').notNull(),
    kb: bigint('kb', { mode: 'number' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.proxyUserId, table.gatewayId] }),
    index('residential_gateway_leases_gateway_idx').on(table.gatewayId),
  ],
);

/**
 * Residential data carried by the gateway, per account and UTC day, in KB (1024 bytes): the usage-over-time chart. Written
 * in the same transaction as the increment of residential_accounts.used_kb, by increments, so several gateways add up.
 */
export const residentialUsageDaily = pgTable(
  'residential_usage_daily',
  {
    userId: text('user_id')
      .notNull()
      .references(() => residentialAccounts.userId, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    usedKb: bigint('used_kb', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.day] }),
    index('residential_usage_daily_day_idx').on(table.day),
  ],
);

/**
 * Usage analytics by the hour: bytes each way and connections (tunnels and plain-HTTP requests) per account, proxy user
 * ('' for the main user) and targeted country ('' for none), written by the gateway with the meter's batches (so they
 * add up to what it billed) and kept 90 days.
 */
export const residentialUsageHourly = pgTable(
  'residential_usage_hourly',
  {
    userId: text('user_id')
      .notNull()
      .references(() => residentialAccounts.userId, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    proxyUserId: text('proxy_user_id').notNull().default(''),
    country: text('country').notNull().default(''),
    uploadBytes: bigint('upload_bytes', { mode: 'number' }).notNull().default(0),
    downloadBytes: bigint('download_bytes', { mode: 'number' }).notNull().default(0),
    connections: bigint('connections', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.hour, table.proxyUserId, table.country] }),
    // The job prunes them by their age.
    index('residential_usage_hourly_hour_idx').on(table.hour),
  ],
);

/**
 * Usage analytics by the day with the target's registrable domain ('' when not recorded: an address, switched off by
 * the customer or the operator), kept 13 months.
 */
export const residentialUsageDomains = pgTable(
  'residential_usage_domains',
  {
    userId: text('user_id')
      .notNull()
      .references(() => residentialAccounts.userId, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    proxyUserId: text('proxy_user_id').notNull().default(''),
    country: text('country').notNull().default(''),
    domain: text('domain').notNull().default(''),
    uploadBytes: bigint('upload_bytes', { mode: 'number' }).notNull().default(0),
    downloadBytes: bigint('download_bytes', { mode: 'number' }).notNull().default(0),
    connections: bigint('connections', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.day, table.proxyUserId, table.country, table.domain] }),
    index('residential_usage_domains_day_idx').on(table.day),
  ],
);

/**
 * Every customer's residential data per UTC day together, kept by triggers on residential_usage_daily (migration 0024)
 * in the transaction of each meter write, so the admin's chart reads a month of rows instead of summing every customer's.
 */
export const residentialUsageTotals = pgTable('residential_usage_totals', {
  day: date('day', { mode: 'string' }).primaryKey(),
  usedKb: bigint('used_kb', { mode: 'number' }).notNull().default(0),
});

/**
 * Each customer's residential data per calendar month (UTC), kept by triggers on residential_usage_daily (migration
 * 0031) in the transaction of each meter write, so the console's heaviest users of the month are read from an index
 * instead of summing every customer's days.
 */
export const residentialUsageMonthly = pgTable(
  'residential_usage_monthly',
  {
    userId: text('user_id').notNull(),
    /** The month's first day. */
    month: date('month', { mode: 'string' }).notNull(),
    usedKb: bigint('used_kb', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.month] }),
    index('residential_usage_monthly_top_idx').on(table.month, table.usedKb.desc(), table.userId),
  ],
);

/**
 * A change the shop asks the payment provider for, under way (never a network call inside a transaction).
 * Written and committed before the call, removed with the call's outcome in one transaction; one left behind (a crash,
 * a timeout) is finished or undone by the periodic job once its holder's lease has run out (payments/provider-steps.ts).
 */
export const providerSteps = pgTable(
  'provider_steps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['coupon.create', 'coupon.delete', 'promo.toggle', 'order.cancel'] }).notNull(),
    /** The coupon, promo code or order it changes (a coupon being created has its id already): one step at a time. */
    subjectId: uuid('subject_id').notNull().unique(),
    /** What finishing or undoing it needs: the new coupon's code, the wanted state, who asked. */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    /** Who holds it: the request that began it, then a run of the job; each takes a new claim. */
    claim: uuid('claim').notNull(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('provider_steps_due_idx').on(table.claimedUntil)],
);

/**
 * Customer e-mails are written here in the transaction of what they report, under a key that makes each one unique
 * (`receipt:<invoice>`, `expired:<order>`…), and sent afterwards by the dispatcher: each is sent once.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /**
     * When the message may be tried next: a sender that claims it moves this ahead (its lease, so no other sender takes
     * it while the mail server is asked, outside any transaction); a failure moves it to the next retry.
     */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('email_outbox_unsent_idx').on(table.nextAttemptAt).where(sql`${table.sentAt} is null`),
    // The job prunes sent e-mails by their sending.
    index('email_outbox_sent_idx')
      .on(table.sentAt)
      .where(sql`${table.sentAt} is not null`),
  ],
);

/** The sandbox provider's test clock (one row): the time its periodic job runs at. It only moves forward. */
export const sandboxClock = pgTable(
  'sandbox_clock',
  {
    id: integer('id').primaryKey().default(1),
    now: timestamp('now', { withTimezone: true }).notNull(),
  },
  (table) => [check('sandbox_clock_single_row', sql`${table.id} = 1`)],
);

/**
 * Every administrator change (feature toggles, uploads, swaps, the residential limit, clock moves), written in the
 * transaction of the change: who, when, what, and its figures.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorUserId: text('actor_user_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    summary: text('summary').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('admin_audit_log_created_idx').on(table.createdAt),
    // The log's filters read their own entries newest first, however few among a million.
    index('admin_audit_log_action_idx').on(table.action, table.createdAt, table.id),
    index('admin_audit_log_actor_idx').on(table.actorEmail, table.createdAt, table.id),
  ],
);

/**
 * Personal API keys of customers. Only the SHA-256 of a key is kept (a key is 32 random bytes, so a fast hash is enough
 * and a lookup is one index probe); `start` is its first characters, shown in the list. Revoking deletes the row.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    start: text('start').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('api_keys_key_hash_key').on(table.keyHash), index('api_keys_user_id_idx').on(table.userId)],
);

/**
 * Something that needs a person: a paid order waiting for stock, a pool running low, the periodic job
 * stuck, an e-mail failing for over an hour. Opened and resolved by the alert check (modules/alerts) as the condition
 * starts and ends; open while `resolved_at` is null, at most one open per kind and subject (an order, a product, the job,
 * an outbox message), so that any number of instances checking at once open it once.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<AlertKind>().notNull(),
    /** What it is about: an order's id, a product id, the job's name, an outbox message's id. */
    subject: text('subject').notNull(),
    /** The figures the alert is told with (product, quantity, customer, since, the stock and its level, the error). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** When an e-mail (its own, or a digest of its kind) told the recipients of it; null while it waits for one. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('alerts_open_key').on(table.kind, table.subject).where(sql`${table.resolvedAt} is null`)],
);

/**
 * One row per kind of alert: when its last e-mail was written. At most one e-mail an hour per kind (the first at once,
 * later ones gathered into a digest); the row is locked while a check decides, so two instances never both send.
 */
export const alertMailings = pgTable('alert_mailings', {
  kind: text('kind').$type<AlertKind>().primaryKey(),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
});

/**
 * The periodic job's last outcomes, shared by every instance that runs it, so that any instance (or the server's light
 * check while the job itself keeps failing) can tell it is stuck. `intervalSeconds` is the runner's own cadence.
 */
export const jobState = pgTable('job_state', {
  name: text('name').primaryKey(),
  intervalSeconds: integer('interval_seconds'),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  failuresInARow: integer('failures_in_a_row').notNull().default(0),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A customer's replacement of one IP of an active Elite ISP or PK1 order (docs/decisions/2026-11-29-ip-replacements.md):
 * `done` when a new IP took its place (the old one burnt), `waiting` while the pool has none for it (the old IP stays
 * with the order meanwhile), `void` when the order ended first. `periodEnd` is the order's expiry when it was asked:
 * the billing period whose allowance it used. Addresses are kept as they were, as a swap rewrites the IP rows.
 */
export const ipReplacements = pgTable(
  'ip_replacements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .$type<ProductId>()
      .notNull()
      .references(() => products.id),
    reason: text('reason', { enum: REPLACEMENT_REASONS }).notNull(),
    status: text('status', { enum: ['done', 'waiting', 'void'] }).notNull(),
    /** The IP row replaced (no foreign key: a subnet swap rewrites rows under the same id). */
    oldIpId: uuid('old_ip_id').notNull(),
    oldAddress: text('old_address').notNull(),
    oldSubnet: text('old_subnet').notNull(),
    newIpId: uuid('new_ip_id'),
    newAddress: text('new_address'),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (table) => [
    // The order's history, newest first a page at a time, and its period's count (the allowance).
    index('ip_replacements_order_idx').on(table.orderId, table.requestedAt, table.id),
    index('ip_replacements_period_idx').on(table.orderId, table.periodEnd),
    // The subnets whose burnt IPs the customer gave back: never given to them again until swapped.
    index('ip_replacements_user_idx').on(table.userId, table.productId),
    // The replacements waiting for stock, first come first served; an IP waits once at a time.
    index('ip_replacements_waiting_idx')
      .on(table.productId, table.requestedAt, table.id)
      .where(sql`${table.status} = 'waiting'`),
    uniqueIndex('ip_replacements_waiting_ip_key').on(table.oldIpId).where(sql`${table.status} = 'waiting'`),
    check('ip_replacements_done_has_new', sql`(${table.status} = 'done') = (${table.newIpId} is not null)`),
  ],
);

/** Replacements per pool and reason since the shop began, kept by the replacement's own transaction. */
export const ipReplacementCounts = pgTable('ip_replacement_counts', {
  productId: text('product_id')
    .$type<ProductId>()
    .primaryKey()
    .references(() => products.id),
  total: integer('total').notNull().default(0),
  blocked: integer('blocked').notNull().default(0),
  slow: integer('slow').notNull().default(0),
  noConnect: integer('no_connect').notNull().default(0),
  other: integer('other').notNull().default(0),
});

/**
 * Replacements per subnet of the replaced IPs since the subnet's last swap (a swap gives it new addresses and removes
 * its row), with the customers who said "blocked by a target": the console lists the most flagged first.
 */
export const ipReplacementSubnets = pgTable(
  'ip_replacement_subnets',
  {
    productId: text('product_id')
      .$type<ProductId>()
      .notNull()
      .references(() => products.id),
    subnet: text('subnet').notNull(),
    total: integer('total').notNull().default(0),
    blocked: integer('blocked').notNull().default(0),
    slow: integer('slow').notNull().default(0),
    noConnect: integer('no_connect').notNull().default(0),
    other: integer('other').notNull().default(0),
    blockedCustomers: integer('blocked_customers').notNull().default(0),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.productId, table.subnet] }),
    // The console's order: most customers flagging it blocked, then most replaced, a page at a time.
    index('ip_replacement_subnets_flagged_idx').on(
      table.productId,
      sql`${table.blockedCustomers} desc`,
      sql`${table.total} desc`,
      table.subnet,
    ),
  ],
);

/** Who flagged a subnet blocked since its last swap: a customer counts once per subnet. */
export const ipReplacementFlags = pgTable(
  'ip_replacement_flags',
  {
    productId: text('product_id').$type<ProductId>().notNull(),
    subnet: text('subnet').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.productId, table.subnet, table.userId] })],
);

/**
 * A customer's automatic top-up of residential data (docs/decisions/2026-11-29-automatic-top-up.md) and the card it is
 * charged to. The card itself stays at the provider: the shop keeps its ids there and a label such as "Visa •••• 4242".
 */
export const topUpSettings = pgTable('top_up_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  thresholdGb: integer('threshold_gb').notNull(),
  amountGb: integer('amount_gb').notNull(),
  monthlyCapCents: integer('monthly_cap_cents').notNull(),
  maxPerDay: integer('max_per_day').notNull(),
  /** The provider that holds the card; a card saved with one provider is not used by the other. */
  provider: text('provider', { enum: ['sandbox', 'stripe'] }),
  providerCustomerId: text('provider_customer_id'),
  paymentMethodId: text('payment_method_id'),
  cardLabel: text('card_label'),
  cardSavedAt: timestamp('card_saved_at', { withTimezone: true }),
  failuresInARow: integer('failures_in_a_row').notNull().default(0),
  /** After a failed payment, no next attempt before this. */
  retryAfter: timestamp('retry_after', { withTimezone: true }),
  /** Set when top-up switched itself off after failed payments in a row; cleared when the customer turns it on. */
  switchedOffAt: timestamp('switched_off_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each top-up: `charging` from the moment it is decided until the provider's answer is recorded (one at a time per
 * customer, by the unique index, whichever instance decides it), then `paid`, `failed` or `needs_action`. A paid one's
 * order is in Order History like any purchase; a failed one's order is deleted.
 */
export const topUps = pgTable(
  'top_ups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    amountGb: integer('amount_gb').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['charging', 'paid', 'failed', 'needs_action'] }).notNull(),
    message: text('message'),
    /**
     * The card it was decided with, kept so that asking again (a run that stopped) asks for the same charge under the
     * same idempotency key, whatever the customer has saved since.
     */
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    providerCustomerId: text('provider_customer_id'),
    paymentMethodId: text('payment_method_id').notNull(),
    /** The provider's charge (a PaymentIntent) once answered: asked again by id, never made again. */
    providerChargeId: text('provider_charge_id'),
    /** While charging: until when the job that decided it holds it; past this another run charges it again. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** The job's time when it was decided (the sandbox's clock when moved): the caps count by it. */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** The real time it was decided (the provider keeps an idempotency key a day). */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('top_ups_one_charging_key').on(table.userId).where(sql`${table.status} = 'charging'`),
    index('top_ups_user_idx').on(table.userId, table.startedAt),
    index('top_ups_charging_idx').on(table.claimedUntil).where(sql`${table.status} = 'charging'`),
  ],
);

/** A card page opened for a customer (Stripe's Checkout session in setup mode, or the sandbox's page). */
export const cardSetups = pgTable('card_setups', {
  id: text('id').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
