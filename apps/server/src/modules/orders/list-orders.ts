import type { Order, OrderHistoryEntry, OrderUsage, ProcessingOrder } from '@storefront/contract';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, payments, proxyIps, residentialAccounts } from '../../db/schema.ts';
import { type EndpointCache, endpointCacheKey } from './endpoint-cache.ts';

/**
 * The customer's paid orders, newest first, each with its proxies (spec section 3 'Order'). With `cache`, an order's
 * endpoints are read from the database only when its proxies_version is not kept yet (endpoint-cache.ts).
 */
export async function listOrders({
  db,
  userId,
  cache,
}: {
  db: Db;
  userId: string;
  cache?: EndpointCache;
}): Promise<Order[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), ne(orders.status, 'awaiting_payment')))
    .orderBy(desc(orders.purchasedAt), desc(orders.createdAt));
  if (rows.length === 0) return [];
  const proxiesByOrder = new Map<string, string[]>();
  const missing: string[] = [];
  for (const row of rows) {
    const kept = cache?.get(endpointCacheKey(row));
    if (kept) proxiesByOrder.set(row.id, kept);
    else missing.push(row.id);
  }
  if (missing.length > 0) {
    for (const [orderId, endpoints] of await endpointsOf(db, missing)) {
      proxiesByOrder.set(orderId, endpoints);
    }
    const read = new Set(missing);
    for (const row of rows) {
      if (read.has(row.id)) cache?.set(endpointCacheKey(row), proxiesByOrder.get(row.id) ?? []);
    }
  }
  return rows.map((row) => ({
    id: row.id,
    product_id: row.productId,
    purchase_time: (row.purchasedAt ?? row.createdAt).toISOString(),
    expiration_time: row.expiresAt?.toISOString() ?? null,
    proxies: proxiesByOrder.get(row.id) ?? [],
    processing: row.status === 'processing',
    cancelled: row.cancelled,
    payment_failed: row.paymentFailed,
    expired: row.status === 'expired',
  }));
}

/** Each order's endpoints by address then port (the Proxies page's order); orders without IPs are left out. */
async function endpointsOf(db: Db, orderIds: string[]): Promise<Map<string, string[]>> {
  // One row per order with its endpoints aggregated in the database, as JSON: the driver reads a JSON array of 10,000
  // strings several times faster than a Postgres array literal.
  const ips = await db
    .select({
      orderId: proxyIps.assignedOrderId,
      endpoints: sql<string[]>`json_agg(${proxyIps.endpoint} order by ${proxyIps.ip}::inet, ${proxyIps.port})`,
    })
    .from(proxyIps)
    .where(inArray(proxyIps.assignedOrderId, orderIds))
    .groupBy(proxyIps.assignedOrderId);
  return new Map(ips.map(({ orderId, endpoints }) => [orderId ?? '', endpoints]));
}

/** The customer's residential account, if they bought data (spec section 3 'Order usage'). */
export async function listOrderUsage({
  db,
  userId,
  gatewayEndpoint,
}: {
  db: Db;
  userId: string;
  gatewayEndpoint: string;
}): Promise<OrderUsage[]> {
  const rows = await db.select().from(residentialAccounts).where(eq(residentialAccounts.userId, userId));
  return rows.map((row) => ({
    usedInKb: row.usedKb,
    totalInKb: row.totalKb,
    endpoint: gatewayEndpoint,
    username: row.username,
    password: row.password,
  }));
}

/** Every payment of the customer, newest first (spec section 3 'Order history entry'; section 9: newest first). */
export async function listOrderHistory({ db, userId }: { db: Db; userId: string }): Promise<OrderHistoryEntry[]> {
  const rows = await db
    .select({ payment: payments, productId: orders.productId })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.paidAt), desc(payments.createdAt));
  return rows.map(({ payment, productId }) => ({
    order_id: payment.orderId,
    stripe_id: payment.invoiceId,
    status: payment.status,
    purchased_at: payment.paidAt.toISOString(),
    product_ids: [productId],
    total: payment.amountCents,
    currency: payment.currency,
    ...(payment.hostedInvoiceUrl && { hosted_invoice_url: payment.hostedInvoiceUrl }),
  }));
}

/** The customer's paid residential orders still waiting for data in the pool (spec section 3 'Processing order'). */
export async function listProcessingOrders({ db, userId }: { db: Db; userId: string }): Promise<ProcessingOrder[]> {
  const rows = await db
    .select({ id: orders.id, quantity: orders.quantity, createdAt: orders.createdAt, purchasedAt: orders.purchasedAt })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'processing'), eq(orders.productId, 'residential_proxies')))
    .orderBy(asc(orders.purchasedAt));
  return rows.map((row) => ({
    id: row.id,
    quantity: row.quantity,
    createdAt: (row.purchasedAt ?? row.createdAt).toISOString(),
  }));
}
