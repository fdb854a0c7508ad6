import { PRODUCTS } from '@storefront/contract';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { listOrders } from './list-orders.ts';

export const cancelMessages = {
  notFound: 'Order not found',
  residential: 'Residential data does not renew, so there is nothing to cancel.',
  alreadyCancelled: 'This order is already cancelled: it ends at the end of its billing cycle.',
  expired: 'This order has already expired.',
} as const;

/**
 * POST /api/orders/cancel: cancel at period end, for the customer's own active, not yet cancelled subscription order.
 * The order is locked while the provider stops the renewals, so two clicks cannot both go through. Answers the order list.
 */
export async function cancelOrder({
  db,
  provider,
  userId,
  orderId,
  now = new Date(),
}: {
  db: Db;
  provider: PaymentProvider;
  userId: string;
  /** Checked by the contract's schema (a UUID). */
  orderId: string;
  now?: Date;
}) {
  await db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId), ne(orders.status, 'awaiting_payment')))
      .for('update');
    if (!order) throw new AppError('NOT_FOUND', cancelMessages.notFound);
    if (PRODUCTS[order.productId].unit === 'gb') {
      throw new AppError('CONFLICT', cancelMessages.residential);
    }
    if (order.cancelled) throw new AppError('CONFLICT', cancelMessages.alreadyCancelled);
    if (!order.expiresAt || order.expiresAt.getTime() <= now.getTime())
      throw new AppError('CONFLICT', cancelMessages.expired);
    await provider.cancelAtPeriodEnd(order);
    await tx.update(orders).set({ cancelled: true, updatedAt: new Date() }).where(eq(orders.id, order.id));
  });
  return listOrders({ db, userId });
}
