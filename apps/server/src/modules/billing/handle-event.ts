import { orderIdSchema, paths } from '@storefront/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orders, payments, webhookEvents } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { PaymentEvent, ProviderName } from '../../payments/provider.ts';
import { applyCheckoutPaid } from './checkout-paid.ts';
import { expireOrder } from './expire-order.ts';
import { recordRenewal } from './record-renewal.ts';
import { recordRenewalFailure } from './record-renewal-failure.ts';
import { saveCard } from './save-card.ts';
import { settleTopUpFailed, settleTopUpPaid } from './settle-top-up.ts';
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
  | 'not_active'
  | 'card_saved';

export interface HandleEventOptions {
  provider: ProviderName;
  event: PaymentEvent;
  brand: Branding;
  /** The time the event is handled at (the job's clock for the sandbox's renewals). */
  now?: Date;
}

/**
 * The one code path after the provider. The event is recorded by its id in the same transaction as its effect, so a
 * repeated event does nothing; the handlers re-read the order, so the order of arrival does not matter.
 */
export async function handlePaymentEvent({ db, ...options }: HandleEventOptions & { db: Db }): Promise<EventOutcome> {
  return db.transaction((tx) => handlePaymentEventIn({ tx, ...options }));
}

/** The same, inside a caller's transaction (the periodic job claims the order first). */
export async function handlePaymentEventIn({
  tx,
  provider,
  event,
  brand,
  now = new Date(),
}: HandleEventOptions & { tx: Tx }): Promise<EventOutcome> {
  const recorded = await eventInsert(tx, provider, event);
  if (recorded.length === 0) return 'duplicate';
  if (event.kind === 'ignored') return 'ignored';
  if (event.kind === 'checkout.paid') return applyCheckoutPaid({ tx, event, brand });
  if (event.kind === 'top_up.paid') return settleTopUpPaid({ tx, event, brand, now });
  if (event.kind === 'top_up.failed') return settleTopUpFailed({ tx, event, brand, now });
  if (event.kind === 'card.saved') return saveCard({ tx, provider, event, now });

  const order = await findOrder(tx, event.orderId, event.subscriptionId);
  if (!order) return 'unknown_order';
  // A subscription's later events can overtake the payment that starts it: refused for now (nothing is recorded), so
  // the provider sends the event again, after the payment has arrived.
  if (order.status === 'awaiting_payment') throw new EventTooEarlyError();
  switch (event.kind) {
    case 'renewal.paid':
      return recordRenewal({ tx, brand, order, invoice: event.invoice, periodEnd: event.periodEnd });
    case 'renewal.failed':
      // A failure reported after the same invoice was paid (a retry that succeeded) is old news.
      if (event.invoiceId && (await invoiceIsPaid(tx, event.invoiceId))) return 'already_recorded';
      return recordRenewalFailure({
        tx,
        brand,
        order,
        now,
        payUrl: event.payUrl ?? `${brand.appUrl}${paths.proxies}`,
      });
    case 'subscription.updated': {
      if (order.status !== 'delivered' && order.status !== 'processing') return 'not_active';
      await tx
        .update(orders)
        .set({ cancelled: event.cancelAtPeriodEnd, updatedAt: new Date() })
        .where(eq(orders.id, order.id));
      return event.cancelAtPeriodEnd ? 'cancel_scheduled' : 'cancel_cleared';
    }
    case 'subscription.ended':
      return expireOrder({ tx, brand, order, endedAt: event.endedAt });
  }
}

/** The event's row, inserted unless it is there already: `returning` answers a row only for an event not seen before. */
function eventInsert(tx: Tx, provider: ProviderName, event: PaymentEvent) {
  return tx
    .insert(webhookEvents)
    .values({
      provider: sql.placeholder('provider'),
      eventId: sql.placeholder('eventId'),
      type: sql.placeholder('type'),
    })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId })
    .prepare('record_event')
    .execute({ provider, eventId: event.eventId, type: event.type });
}

/** An event about an order whose first payment has not arrived yet; the webhook answers 503 so it comes again. */
export class EventTooEarlyError extends Error {
  constructor() {
    super('This event is about an order whose payment has not arrived yet; send it again later.');
  }
}

async function invoiceIsPaid(tx: Tx, invoiceId: string): Promise<boolean> {
  const [paid] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.invoiceId, invoiceId)).limit(1);
  return paid !== undefined;
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
