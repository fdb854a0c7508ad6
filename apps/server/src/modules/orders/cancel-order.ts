import { PRODUCTS, productIdSchema } from '@storefront/contract';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { listOrders } from './list-orders.ts';

export const cancelMessages = {
  invalidId: 'The order id is not valid.',
  notFound: 'Order not found',
  residential: 'Residential data does not renew, so there is nothing to cancel.',
  alreadyCancelled: 'This order is already cancelled: it ends at the end of its billing cycle.',
  expired: 'This order has already expired.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /api/orders/cancel: cancel at period end, for the customer's own active, not yet cancelled subscription order.
 * The order is locked while the provider stops the renewals, so two clicks cannot both go through. Answers the order list.
 */
export async function cancelOrder(
  db: Db,
  provider: PaymentProvider,
  userId: string,
  orderId: unknown,
  now = new Date(),
) {
  if (typeof orderId !== 'string' || !UUID.test(orderId)) throw new AppError('BAD_REQUEST', cancelMessages.invalidId);
  await db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId), ne(orders.status, 'awaiting_payment')))
      .for('update');
    if (!order) throw new AppError('NOT_FOUND', cancelMessages.notFound);
    if (PRODUCTS[productIdSchema.parse(order.productId)].unit === 'gb') {
      throw new AppError('CONFLICT', cancelMessages.residential);
    }
    if (order.cancelled) throw new AppError('CONFLICT', cancelMessages.alreadyCancelled);
    if (!order.expiresAt || order.expiresAt.getTime() <= now.getTime())
      throw new AppError('CONFLICT', cancelMessages.expired);
    await provider.cancelAtPeriodEnd(order);
    await tx.update(orders).set({ cancelled: true, updatedAt: new Date() }).where(eq(orders.id, order.id));
  });
  return listOrders(db, userId);
}
