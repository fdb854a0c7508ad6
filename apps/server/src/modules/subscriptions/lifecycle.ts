import { PRODUCTS } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orders, payments, proxyIps, users } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { addMonths } from '../../lib/dates.ts';
import { expiredEmail, type OrderFacts, paymentFailedEmail, receiptEmail } from '../notifications/customer-emails.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import type { PaidInvoice } from '../payments/provider.ts';

/** Spec section 1 and ARCHITECTURE section 4: after a failed renewal the IPs stay for 3 days. */
export const GRACE_DAYS = 3;
export const graceEnd = (from: Date) => new Date(from.getTime() + GRACE_DAYS * 86_400_000);

export type OrderRow = typeof orders.$inferSelect;

/** The order's customer address and what the e-mails say about it. */
export async function emailFacts(tx: Tx, order: OrderRow): Promise<{ to: string; facts: OrderFacts }> {
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, order.userId));
  return {
    to: user?.email ?? '',
    facts: { orderId: order.id, productId: order.productId, quantity: order.quantity },
  };
}

const isLive = (order: OrderRow) => order.status === 'delivered' || order.status === 'processing';

/**
 * A later period was paid: one history entry per invoice, the period extended once, the failure flag cleared. A repeated
 * or late event for an invoice already recorded changes nothing.
 */
export async function recordRenewal(
  tx: Tx,
  brand: Branding,
  order: OrderRow,
  invoice: PaidInvoice,
  periodEnd: Date | null,
): Promise<'renewed' | 'already_recorded' | 'not_active'> {
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

/** A renewal failed: the flag is set and the grace period starts, once per period. */
export async function recordRenewalFailure(
  tx: Tx,
  brand: Branding,
  order: OrderRow,
  now: Date,
  payUrl: string,
): Promise<'failed' | 'already_failed' | 'not_active'> {
  if (!isLive(order)) return 'not_active';
  if (order.paymentFailed) return 'already_failed';
  const from = order.expiresAt && order.expiresAt < now ? order.expiresAt : now;
  const graceEndsAt = graceEnd(from);
  await tx
    .update(orders)
    .set({ paymentFailed: true, graceEndsAt, updatedAt: new Date() })
    .where(eq(orders.id, order.id));
  const { to, facts } = await emailFacts(tx, order);
  await enqueueEmail(
    tx,
    `payment-failed:${order.id}:${(order.expiresAt ?? now).toISOString()}`,
    paymentFailedEmail(brand, to, facts, graceEndsAt, payUrl),
  );
  return 'failed';
}

/**
 * Ends an order: it keeps its history, its IPs are released and marked burnt (`need_rotated`), so they are not sold again
 * until an administrator swaps their subnet. Residential data never expires.
 */
export async function expireOrder(
  tx: Tx,
  brand: Branding,
  order: OrderRow,
  endedAt: Date,
): Promise<'expired' | 'not_active'> {
  if (!isLive(order) || PRODUCTS[order.productId].unit === 'gb') return 'not_active';
  await tx
    .update(proxyIps)
    .set({ assignedOrderId: null, needRotated: true })
    .where(eq(proxyIps.assignedOrderId, order.id));
  await tx
    .update(orders)
    .set({
      status: 'expired',
      // Never in the future: customers see "Active" while expiration_time lies ahead (the sandbox clock runs early).
      expiresAt: new Date(
        Math.min(order.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY, endedAt.getTime(), Date.now()),
      ),
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id));
  const { to, facts } = await emailFacts(tx, order);
  await enqueueEmail(tx, `expired:${order.id}`, expiredEmail(brand, to, facts));
  return 'expired';
}
