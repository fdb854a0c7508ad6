import { PRODUCTS } from '@storefront/contract';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { ipReplacements, orders, proxyIps } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { expiredEmail } from '../notifications/customer-emails.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { emailFacts, isLive, type OrderRow } from './order-facts.ts';

/**
 * Ends an order: it keeps its history, its IPs are released and marked burnt (`need_rotated`), so they are not sold again
 * until an administrator swaps their subnet. Residential data never expires.
 */
export async function expireOrder({
  tx,
  brand,
  order,
  endedAt,
}: {
  tx: Tx;
  brand: Branding;
  /** Locked by the caller. */
  order: OrderRow;
  endedAt: Date;
}): Promise<'expired' | 'not_active'> {
  if (!isLive(order) || PRODUCTS[order.productId].unit === 'gb') return 'not_active';
  // A replacement still waiting for stock has nothing left to replace.
  await tx
    .update(ipReplacements)
    .set({ status: 'void' })
    .where(and(eq(ipReplacements.orderId, order.id), eq(ipReplacements.status, 'waiting')));
  await tx
    .update(proxyIps)
    .set({ assignedOrderId: null, needRotated: true })
    .where(eq(proxyIps.assignedOrderId, order.id));
  await tx
    .update(orders)
    .set({
      status: 'expired',
      // A business date: the end of the paid period (or the moment it ended, if earlier), never the real time of the
      // run, which is earlier when the sandbox's clock was moved forward. The order reads as expired by its status.
      expiresAt: new Date(Math.min(order.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY, endedAt.getTime())),
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id));
  const { to, facts } = await emailFacts(tx, order);
  await enqueueEmail(tx, `expired:${order.id}`, expiredEmail(brand, to, facts));
  return 'expired';
}
