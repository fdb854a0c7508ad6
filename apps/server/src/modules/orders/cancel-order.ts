import { PRODUCTS } from '@storefront/contract';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { beginStep, endStep, handOver, type Step } from '../../payments/provider-steps.ts';
import { listOrders } from './list-orders.ts';

export const cancelMessages = {
  notFound: 'Order not found',
  residential: 'Residential data does not renew, so there is nothing to cancel.',
  alreadyCancelled: 'This order is already cancelled: it ends at the end of its billing cycle.',
  expired: 'This order has already expired.',
} as const;

/**
 * POST /api/orders/cancel: cancel at period end, for the customer's own active, not yet cancelled subscription order.
 * The order is checked and the cancellation recorded as a step (provider-steps.ts: a second click meanwhile is told it
 * is on its way), the provider stops the renewals, and the order is marked cancelled. Answers the order list.
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
  const markCancelled = (tx: Tx) =>
    tx.update(orders).set({ cancelled: true, updatedAt: new Date() }).where(eq(orders.id, orderId));
  const step = await db.transaction(async (tx) => {
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
    // The sandbox's renewals are the shop's own: nothing to ask a provider.
    if (!order.providerSubscriptionId) {
      await markCancelled(tx);
      return undefined;
    }
    return beginStep(tx, {
      kind: 'order.cancel',
      subjectId: order.id,
      detail: { providerSubscriptionId: order.providerSubscriptionId },
    });
  });
  if (step) {
    const subscription = { id: orderId, providerSubscriptionId: String(step.detail.providerSubscriptionId) };
    try {
      await provider.cancelAtPeriodEnd(subscription);
    } catch (error) {
      await handOver(db, step, error);
      throw error;
    }
    await db.transaction(async (tx) => {
      await endStep(tx, step);
      await markCancelled(tx);
    });
  }
  return listOrders({ db, userId });
}

/**
 * The periodic job's end of a cancellation left behind (provider-steps.ts): the order is cancelled here if the provider
 * has its subscription stopping at period end (finished), and left as it is if not (undone; the customer can cancel
 * again). Stripe's customer.subscription.updated event says the same later.
 */
export async function settleCancelStep(provider: PaymentProvider, step: Step) {
  const providerSubscriptionId = String(step.detail.providerSubscriptionId);
  const cancels = await provider.cancelsAtPeriodEnd({ id: step.subjectId, providerSubscriptionId });
  return async (tx: Tx) => {
    if (!cancels) return;
    await tx
      .update(orders)
      .set({ cancelled: true, updatedAt: new Date() })
      .where(and(eq(orders.id, step.subjectId), inArray(orders.status, ['delivered', 'processing'])));
  };
}
