import { orderIdSchema, PRODUCTS } from '@storefront/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orders, payments, users } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { addMonths } from '../../lib/dates.ts';
import type { PaymentEvent } from '../../payments/provider.ts';
import { recordRedemption } from '../coupons/coupons.ts';
import { deliverOrder } from '../delivery/deliver-order.ts';
import { receiptEmail } from '../notifications/customer-emails.ts';
import { enqueueEmail } from '../notifications/outbox.ts';

/**
 * Payment confirmed (the event already recorded by the caller, in the same transaction): the order, locked, is paid,
 * gets its history entry, its receipt and its redemption, and is delivered (or waits).
 */
export async function applyCheckoutPaid({
  tx,
  event,
  brand,
}: {
  tx: Tx;
  event: Extract<PaymentEvent, { kind: 'checkout.paid' }>;
  brand: Branding;
}): Promise<'unknown_order' | 'already_paid' | 'delivered' | 'processing'> {
  if (!orderIdSchema.safeParse(event.orderId).success) return 'unknown_order';
  const [found] = await tx
    .select({ order: orders, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, sql.placeholder('orderId')))
    .for('update', { of: orders })
    .prepare('paid_order')
    .execute({ orderId: event.orderId });
  if (!found) return 'unknown_order';
  const { order, email } = found;

  const payment = {
    orderId: order.id,
    userId: order.userId,
    kind: 'checkout' as const,
    invoiceId: event.invoice.id,
    hostedInvoiceUrl: event.invoice.hostedUrl,
    status: 'paid' as const,
    amountCents: event.invoice.amountCents,
    discountCents: event.invoice.discountCents,
    currency: event.invoice.currency,
    paidAt: event.invoice.paidAt,
  };
  if (order.status !== 'awaiting_payment') {
    // One checkout payment per order, whichever of the provider's events tells it first (and a double click in the
    // sandbox). It is written only in the transaction that moves the order out of awaiting_payment (below), so only an
    // order already moved on can have one.
    const [earlier] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.kind, 'checkout')))
      .limit(1);
    if (!earlier) await tx.insert(payments).values(payment).onConflictDoNothing({ target: payments.invoiceId });
    return 'already_paid';
  }

  // A custom order waits, paid, for the administrator to fulfil it with its own endpoints.
  const outcome = order.custom
    ? 'processing'
    : await deliverOrder({
        tx,
        order: { id: order.id, userId: order.userId, productId: order.productId, quantity: order.quantity },
      });
  const paidAt = event.invoice.paidAt;
  // The payment and the order's new state: prepared, as every paid checkout runs them.
  await tx
    .insert(payments)
    .values(placeholders(payment))
    .onConflictDoNothing({ target: payments.invoiceId })
    .prepare('record_checkout_payment')
    .execute(payment);
  const paid = {
    id: order.id,
    status: outcome,
    purchasedAt: paidAt,
    expiresAt: PRODUCTS[order.productId].unit === 'ip_month' ? (event.periodEnd ?? addMonths(paidAt, 1)) : null,
    providerSubscriptionId: event.subscriptionId ?? order.providerSubscriptionId,
    providerCustomerId: event.customerId ?? order.providerCustomerId,
    updatedAt: new Date(),
  };
  const { id: _id, ...changed } = placeholders(paid);
  await tx
    .update(orders)
    .set(changed as Record<keyof typeof changed, SQL>)
    .where(eq(orders.id, sql.placeholder('id')))
    .prepare('mark_order_paid')
    .execute(paid);
  await enqueueEmail(
    tx,
    `receipt:${event.invoice.id}`,
    receiptEmail(
      brand,
      email,
      { orderId: order.id, productId: order.productId, quantity: order.quantity },
      {
        amountCents: event.invoice.amountCents,
        currency: event.invoice.currency,
        invoiceUrl: event.invoice.hostedUrl,
        renewal: false,
      },
    ),
  );
  const redeemer = email || event.customerEmail;
  if (order.promoCodeId && redeemer) {
    await recordRedemption({ tx, promoCodeId: order.promoCodeId, orderId: order.id, email: redeemer });
  }
  return outcome;
}

/** Each field as a placeholder of its own name, for a prepared statement run with the object itself. */
function placeholders<T extends object>(values: T): { [K in keyof T]: SQL } {
  return Object.fromEntries(Object.keys(values).map((key) => [key, sql`${sql.placeholder(key)}`])) as {
    [K in keyof T]: SQL;
  };
}
