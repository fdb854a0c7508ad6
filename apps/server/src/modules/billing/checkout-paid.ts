import { orderIdSchema, PRODUCTS } from '@storefront/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orders, payments, users } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { addMonths } from '../../lib/dates.ts';
import type { PaymentEvent } from '../../payments/provider.ts';
import { recordRedemption } from '../coupons/coupons.ts';
import { deliverOrder, ipClaim } from '../delivery/deliver-order.ts';
import { receiptEmail } from '../notifications/customer-emails.ts';
import { emailInsert } from '../notifications/outbox.ts';
import type { EventInsert } from './handle-event.ts';

/**
 * Payment confirmed: the event is recorded, the order is paid, gets its history entry, its receipt and its redemption,
 * and is delivered (or waits). `recordEvent` is the event's insert, run here as part of the statement that locks the
 * order, so that a repeated event does nothing.
 */
export async function applyCheckoutPaid({
  tx,
  event,
  brand,
  recordEvent,
}: {
  tx: Tx;
  event: Extract<PaymentEvent, { kind: 'checkout.paid' }>;
  brand: Branding;
  recordEvent: EventInsert;
}): Promise<'duplicate' | 'unknown_order' | 'already_paid' | 'delivered' | 'processing'> {
  if (!orderIdSchema.safeParse(event.orderId).success) {
    return (await recordEvent).length === 0 ? 'duplicate' : 'unknown_order';
  }
  // The event's row, then the order, locked, with its customer's address (for the receipt and the redemption), in one
  // round trip: the order is read (and locked) only if the event is new, so the event's row is always taken first.
  const recordedEvent = tx.$with('recorded_event').as(recordEvent);
  const [found] = await tx
    .with(recordedEvent)
    .select({ order: orders, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orders.id, event.orderId), sql`exists (select from ${recordedEvent})`))
    .for('update', { of: orders });
  if (!found) {
    // Seen before, or about no order of ours (which is answered so however often it comes).
    const [known] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, event.orderId));
    return known ? 'duplicate' : 'unknown_order';
  }
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

  const productId = order.productId;
  const paidAt = event.invoice.paidAt;
  const recurring = PRODUCTS[productId].unit === 'ip_month';
  const deliverable = { id: order.id, userId: order.userId, productId, quantity: order.quantity };
  // An IP order claims its IPs inside the statement below; residential data is added first, in statements of its
  // own; a custom order waits, paid, for the administrator to fulfil it with its own endpoints.
  const claim = !order.custom && PRODUCTS[productId].unit !== 'gb' ? ipClaim(tx, deliverable) : undefined;
  const settled = order.custom ? 'processing' : claim ? undefined : await deliverOrder({ tx, order: deliverable });

  // The IPs' claim, the payment, the order's new state and the receipt in one statement (one round trip):
  // PostgreSQL runs each data-modifying WITH clause once, to completion, whether or not the main statement reads it.
  const facts = { orderId: order.id, productId: order.productId, quantity: order.quantity };
  const recorded = tx
    .$with('recorded_payment')
    .as(
      tx
        .insert(payments)
        .values(payment)
        .onConflictDoNothing({ target: payments.invoiceId })
        .returning({ id: payments.id }),
    );
  const receipt = tx.$with('receipt').as(
    emailInsert(
      tx,
      `receipt:${event.invoice.id}`,
      receiptEmail(brand, email, facts, {
        amountCents: event.invoice.amountCents,
        currency: event.invoice.currency,
        invoiceUrl: event.invoice.hostedUrl,
        renewal: false,
      }),
    ),
  );
  const [updated] = await tx
    .with(...(claim?.ctes ?? []), recorded, receipt)
    .update(orders)
    .set({
      status: settled ?? sql`case when ${claim?.claimed} then 'delivered' else 'processing' end`,
      purchasedAt: paidAt,
      expiresAt: recurring ? (event.periodEnd ?? addMonths(paidAt, 1)) : null,
      providerSubscriptionId: event.subscriptionId ?? order.providerSubscriptionId,
      providerCustomerId: event.customerId ?? order.providerCustomerId,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id))
    .returning({ status: orders.status });
  const outcome = updated?.status === 'delivered' ? 'delivered' : 'processing';

  const redeemer = email || event.customerEmail;
  if (order.promoCodeId && redeemer) {
    await recordRedemption({ tx, promoCodeId: order.promoCodeId, orderId: order.id, email: redeemer });
  }
  return outcome;
}
