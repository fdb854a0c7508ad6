import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orders, payments } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { addMonths } from '../../lib/dates.ts';
import type { PaidInvoice } from '../../payments/provider.ts';
import { receiptEmail } from '../notifications/customer-emails.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { emailFacts, isLive, type OrderRow } from './order-facts.ts';

/**
 * A later period was paid: one history entry per invoice, the period extended once, the failure flag cleared. A repeated
 * or late event for an invoice already recorded changes nothing.
 */
export async function recordRenewal({
  tx,
  brand,
  order,
  invoice,
  periodEnd,
}: {
  tx: Tx;
  brand: Branding;
  /** Locked by the caller. */
  order: OrderRow;
  invoice: PaidInvoice;
  /** The provider's end of the new period; null: one month after the current one. */
  periodEnd: Date | null;
}): Promise<'renewed' | 'already_recorded' | 'not_active'> {
  if (!isLive(order)) return 'not_active';
  const inserted = await tx
    .insert(payments)
    .values({
      orderId: order.id,
      userId: order.userId,
      kind: 'renewal',
      invoiceId: invoice.id,
      hostedInvoiceUrl: invoice.hostedUrl,
      status: 'paid',
      amountCents: invoice.amountCents,
      discountCents: invoice.discountCents,
      currency: invoice.currency,
      paidAt: invoice.paidAt,
    })
    .onConflictDoNothing({ target: payments.invoiceId })
    .returning({ id: payments.id });
  if (inserted.length === 0) return 'already_recorded';
  const current = order.expiresAt ?? invoice.paidAt;
  const next = periodEnd && periodEnd > current ? periodEnd : addMonths(current, 1);
  await tx
    .update(orders)
    .set({ expiresAt: next, paymentFailed: false, graceEndsAt: null, updatedAt: new Date() })
    .where(eq(orders.id, order.id));
  const { to, facts } = await emailFacts(tx, order);
  await enqueueEmail(
    tx,
    `receipt:${invoice.id}`,
    receiptEmail(brand, to, facts, {
      amountCents: invoice.amountCents,
      currency: invoice.currency,
      invoiceUrl: invoice.hostedUrl,
      renewal: true,
    }),
  );
  return 'renewed';
}
