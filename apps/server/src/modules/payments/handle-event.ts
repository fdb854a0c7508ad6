import { orderIdSchema, PRODUCTS } from '@storefront/contract';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orders, payments, users, webhookEvents } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { addMonths } from '../../lib/dates.ts';
import { recordRedemption } from '../coupons/coupons.ts';
import { deliverOrder } from '../delivery/deliver-order.ts';
import { receiptEmail } from '../notifications/customer-emails.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { emailFacts, expireOrder, recordRenewal, recordRenewalFailure } from '../subscriptions/lifecycle.ts';
import type { PaymentEvent, ProviderName } from './provider.ts';

export type EventOutcome =
  | 'duplicate'
  | 'ignored'
  | 'unknown_order'
  | 'delivered'
  | 'processing'
  | 'already_paid'
  | 'renewed'
  | 'already_recorded'
  | 'failed'
  | 'already_failed'
  | 'cancel_scheduled'
  | 'cancel_cleared'
  | 'expired'
  | 'not_active';

export interface EventContext {
  brand: Branding;
  /** The time the event is handled at (the job's clock for the sandbox's renewals). */
  now?: Date;
}

/**
 * The one code path after the provider. The event is recorded by its id in the same transaction as its effect, so a
 * repeated event does nothing; the handlers re-read the order, so the order of arrival does not matter.
 */
export async function handlePaymentEvent(
  db: Db,
  provider: ProviderName,
  event: PaymentEvent,
  ctx: EventContext,
): Promise<EventOutcome> {
  return db.transaction((tx) => handlePaymentEventIn(tx, provider, event, ctx));
}

/** The same, inside a caller's transaction (the periodic job claims the order first). */
export async function handlePaymentEventIn(
  tx: Tx,
  provider: ProviderName,
  event: PaymentEvent,
  ctx: EventContext,
): Promise<EventOutcome> {
  const recorded = await tx
    .insert(webhookEvents)
    .values({ provider, eventId: event.eventId, type: event.type })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  if (recorded.length === 0) return 'duplicate';
  if (event.kind === 'ignored') return 'ignored';
  if (event.kind === 'checkout.paid') return applyCheckoutPaid(tx, event, ctx);

  const order = await findOrder(tx, event.orderId, event.subscriptionId);
  if (!order) return 'unknown_order';
  const now = ctx.now ?? new Date();
  switch (event.kind) {
    case 'renewal.paid':
      return recordRenewal(tx, ctx.brand, order, event.invoice, event.periodEnd);
    case 'renewal.failed':
      return recordRenewalFailure(tx, ctx.brand, order, now, event.payUrl ?? `${ctx.brand.appUrl}/dashboard/proxies`);
    case 'subscription.updated': {
      if (order.status !== 'delivered' && order.status !== 'processing') return 'not_active';
      await tx
        .update(orders)
        .set({ cancelled: event.cancelAtPeriodEnd, updatedAt: new Date() })
        .where(eq(orders.id, order.id));
      return event.cancelAtPeriodEnd ? 'cancel_scheduled' : 'cancel_cleared';
    }
    case 'subscription.ended':
      return expireOrder(tx, ctx.brand, order, event.endedAt);
  }
}

/** The order an event names: by our order id (metadata) first, then by the provider's subscription id. Locked. */
async function findOrder(tx: Tx, orderId: string | null, subscriptionId: string | null) {
  if (orderId && orderIdSchema.safeParse(orderId).success) {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (order) return order;
  }
  if (subscriptionId) {
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.providerSubscriptionId, subscriptionId))
      .for('update');
    return order;
  }
  return undefined;
}

/** Payment confirmed: the order is paid, gets its history entry, its receipt and its redemption, and is delivered (or waits). */
async function applyCheckoutPaid(
  tx: Tx,
  event: Extract<PaymentEvent, { kind: 'checkout.paid' }>,
  ctx: EventContext,
): Promise<EventOutcome> {
  if (!orderIdSchema.safeParse(event.orderId).success) return 'unknown_order';
  const [order] = await tx.select().from(orders).where(eq(orders.id, event.orderId)).for('update');
  if (!order) return 'unknown_order';

  // One checkout payment per order, whichever of the provider's events tells it first (and a double click in the sandbox).
  const [earlier] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.kind, 'checkout')))
    .limit(1);
  if (!earlier) {
    await tx
      .insert(payments)
      .values({
        orderId: order.id,
        userId: order.userId,
        kind: 'checkout',
        invoiceId: event.invoice.id,
        hostedInvoiceUrl: event.invoice.hostedUrl,
        status: 'paid',
        amountCents: event.invoice.amountCents,
        discountCents: event.invoice.discountCents,
        currency: event.invoice.currency,
        paidAt: event.invoice.paidAt,
      })
      .onConflictDoNothing({ target: payments.invoiceId });
  }
  if (order.status !== 'awaiting_payment') return 'already_paid';

  const productId = order.productId;
  const paidAt = event.invoice.paidAt;
  const recurring = PRODUCTS[productId].unit === 'ip_month';
  const outcome = await deliverOrder(tx, { id: order.id, userId: order.userId, productId, quantity: order.quantity });
  await tx
    .update(orders)
    .set({
      status: outcome,
      purchasedAt: paidAt,
      expiresAt: recurring ? (event.periodEnd ?? addMonths(paidAt, 1)) : null,
      providerSubscriptionId: event.subscriptionId ?? order.providerSubscriptionId,
      providerCustomerId: event.customerId ?? order.providerCustomerId,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id));

  const { to, facts } = await emailFacts(tx, order);
  await enqueueEmail(
    tx,
    `receipt:${event.invoice.id}`,
    receiptEmail(ctx.brand, to, facts, {
      amountCents: event.invoice.amountCents,
      currency: event.invoice.currency,
      invoiceUrl: event.invoice.hostedUrl,
      renewal: false,
    }),
  );
  if (order.promoCodeId) {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, order.userId));
    const email = user?.email ?? event.customerEmail;
    if (email) await recordRedemption(tx, { promoCodeId: order.promoCodeId, orderId: order.id, email });
  }
  return outcome;
}
