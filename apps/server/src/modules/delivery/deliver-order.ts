import { randomBytes } from 'node:crypto';
import { KB_PER_GB, POOL_MB_PER_GB, PRODUCTS, type ProductId } from '@storefront/contract';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orders, proxyIps, residentialAccounts, residentialPool, users } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { deliveredEmail } from '../notifications/customer-emails.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { deliverWaitingReplacements } from './replacement-ips.ts';

export interface DeliverableOrder {
  id: string;
  userId: string;
  productId: ProductId;
  quantity: number;
}

/**
 * Delivers a paid order inside the caller's transaction (ARCHITECTURE section 4). ISP and PK1 take `quantity` available IPs
 * of the product's pool, locked with FOR UPDATE SKIP LOCKED so parallel deliveries never take the same IP; residential adds
 * the GB to the customer's account and the pool. When stock is short nothing is taken and the order waits as processing.
 */
export async function deliverOrder({
  tx,
  order,
}: {
  tx: Tx;
  order: DeliverableOrder;
}): Promise<'delivered' | 'processing'> {
  return PRODUCTS[order.productId].unit === 'gb' ? deliverResidential(tx, order) : deliverIps(tx, order);
}

/**
 * An IP order's addresses, all or nothing, in one statement: the oldest available IPs of the product in the available
 * index's order, locked, skipping the ones another delivery holds (FOR UPDATE SKIP LOCKED, so parallel deliveries never
 * take the same IP), are assigned to the order. With fewer than `quantity` available the order waits and the few it got
 * are given back in the same transaction.
 */
async function deliverIps(tx: Tx, order: DeliverableOrder): Promise<'delivered' | 'processing'> {
  const available = tx
    .select({ id: proxyIps.id })
    .from(proxyIps)
    .where(
      and(
        eq(proxyIps.productId, sql.placeholder('productId')),
        isNull(proxyIps.assignedOrderId),
        eq(proxyIps.needRotated, false),
      ),
    )
    .orderBy(asc(proxyIps.createdAt), asc(proxyIps.id))
    .limit(sql.placeholder('quantity'))
    .for('update', { skipLocked: true });
  const claimed = await tx
    .update(proxyIps)
    .set({ assignedOrderId: sql<string>`${sql.placeholder('orderId')}` })
    .where(inArray(proxyIps.id, available))
    .returning({ id: proxyIps.id })
    .prepare('claim_ips')
    .execute({ productId: order.productId, quantity: order.quantity, orderId: order.id });
  if (claimed.length === order.quantity) return 'delivered';
  if (claimed.length > 0) {
    await tx
      .update(proxyIps)
      .set({ assignedOrderId: null })
      .where(
        inArray(
          proxyIps.id,
          claimed.map(({ id }) => id),
        ),
      );
  }
  return 'processing';
}

async function deliverResidential(tx: Tx, order: DeliverableOrder): Promise<'delivered' | 'processing'> {
  const neededMb = order.quantity * POOL_MB_PER_GB;
  const [pool] = await tx.select().from(residentialPool).where(eq(residentialPool.id, 1)).for('update');
  if (!pool || pool.bandwidthLimitMb - pool.bandwidthUsedMb < neededMb) return 'processing';
  await tx
    .update(residentialPool)
    .set({ bandwidthUsedMb: sql`${residentialPool.bandwidthUsedMb} + ${neededMb}`, updatedAt: new Date() })
    .where(eq(residentialPool.id, 1));
  const addedKb = order.quantity * KB_PER_GB;
  await tx
    .insert(residentialAccounts)
    .values({
      userId: order.userId,
      username: `res${randomBytes(5).toString('hex')}`,
      password: randomBytes(12).toString('base64url'),
      totalKb: addedKb,
    })
    .onConflictDoUpdate({
      target: residentialAccounts.userId,
      set: { totalKb: sql`${residentialAccounts.totalKb} + ${addedKb}`, updatedAt: new Date() },
    });
  return 'delivered';
}

/**
 * Delivers the product's waiting (processing) orders, oldest payment first, inside the caller's transaction: called by
 * every addition of stock. Strictly first come, first served: it stops at the first order the stock cannot serve, so a
 * large early order is never overtaken by smaller later ones. Customers' IP replacements waiting for stock are made
 * first (replacement-ips.ts). Answers how many orders were delivered.
 */
export async function deliverWaitingOrders({
  tx,
  brand,
  productId,
}: {
  tx: Tx;
  brand: Branding;
  productId: ProductId;
}): Promise<number> {
  if (PRODUCTS[productId].unit !== 'gb') await deliverWaitingReplacements(tx, brand, productId);
  const waiting = await tx
    .select()
    .from(orders)
    // Custom orders are fulfilled by hand with their own endpoints, never from the pool.
    .where(and(eq(orders.productId, productId), eq(orders.status, 'processing'), eq(orders.custom, false)))
    .orderBy(asc(orders.purchasedAt), asc(orders.createdAt))
    .for('update', { skipLocked: true });
  let delivered = 0;
  for (const order of waiting) {
    const outcome = await deliverOrder({
      tx,
      order: { id: order.id, userId: order.userId, quantity: order.quantity, productId },
    });
    if (outcome !== 'delivered') break;
    await tx.update(orders).set({ status: 'delivered', updatedAt: new Date() }).where(eq(orders.id, order.id));
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, order.userId));
    const facts = { orderId: order.id, productId, quantity: order.quantity };
    await enqueueEmail(tx, `delivered:${order.id}`, deliveredEmail(brand, user?.email ?? '', facts));
    delivered += 1;
  }
  return delivered;
}
