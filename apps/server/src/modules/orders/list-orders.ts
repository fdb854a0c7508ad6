import { createHash } from 'node:crypto';
import type { Order, OrderHistoryEntry, OrderUsage, ProcessingOrder } from '@storefront/contract';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, payments, proxyIps, residentialAccounts } from '../../db/schema.ts';

/** One paid order of the customer as stored, without its proxies (what the answer's version is made of). */
export type OrderRow = typeof orders.$inferSelect;

/** The customer's paid orders, newest first, without their proxies. */
export function listOrderRows({ db, userId }: { db: Db; userId: string }): Promise<OrderRow[]> {
  // Read on every GET /api/orders: prepared, so PostgreSQL parses and plans it once per connection.
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, sql.placeholder('userId')), ne(orders.status, 'awaiting_payment')))
    .orderBy(desc(orders.purchasedAt), desc(orders.createdAt))
    .prepare('orders_of_customer')
    .execute({ userId });
}

/**
 * A version of the customer's orders answer: changes whenever an order's fields or its proxies change (an order's
 * proxies_version is raised by a trigger on every change of its IPs), so a client holding the answer of the same version
 * holds the current one.
 */
export function ordersVersion(rows: OrderRow[]): string {
  const hash = createHash('sha256');
  for (const row of rows) {
    hash.update(
      [
        row.id,
        row.productId,
        row.status,
        row.purchasedAt?.toISOString(),
        row.createdAt.toISOString(),
        row.expiresAt?.toISOString(),
        row.cancelled,
        row.paymentFailed,
        row.proxiesVersion,
      ].join('|'),
    );
    hash.update('\n');
  }
  return hash.digest('base64url').slice(0, 27);
}

/** The customer's paid orders, newest first, each with its proxies (spec section 3 'Order'). */
export async function listOrders({
  db,
  userId,
  rows,
}: {
  db: Db;
  userId: string;
  /** The order rows when already read (listOrderRows). */
  rows?: OrderRow[];
}): Promise<Order[]> {
  const orderRows = rows ?? (await listOrderRows({ db, userId }));
  if (orderRows.length === 0) return [];
  const proxiesByOrder = await endpointsOf(
    db,
    orderRows.map((row) => row.id),
  );
  return orderRows.map((row) => ({
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
  // One row per order with its endpoints aggregated in the database, as JSON: the driver parses a JSON array faster
  // than a Postgres array literal.
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
