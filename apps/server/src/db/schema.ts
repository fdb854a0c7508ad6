import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** The catalogue (spec section 1). Unit prices mirror the configuration at every start. */
export const products = pgTable('products', {
  id: text('id').primaryKey(),
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
    index('proxy_ips_available_idx')
      .on(table.productId, table.createdAt)
      .where(sql`${table.assignedOrderId} is null and ${table.needRotated} = false`),
    index('proxy_ips_subnet_idx').on(table.subnet),
    check('proxy_ips_port_range', sql`${table.port} between 1 and 65535`),
  ],
);

/** The residential data pool (one row). Megabytes, as the admin view shows them (spec section 3 'Residential stock'). */
export const residentialPool = pgTable(
  'residential_pool',
  {
    id: integer('id').primaryKey().default(1),
    bandwidthLimitMb: bigint('bandwidth_limit_mb', { mode: 'number' }).notNull().default(0),
    bandwidthUsedMb: bigint('bandwidth_used_mb', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('residential_pool_single_row', sql`${table.id} = 1`),
    check('residential_pool_non_negative', sql`${table.bandwidthLimitMb} >= 0 and ${table.bandwidthUsedMb} >= 0`),
  ],
);
