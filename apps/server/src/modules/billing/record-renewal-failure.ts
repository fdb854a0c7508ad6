import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { paymentFailedEmail } from '../notifications/customer-emails.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { emailFacts, graceEnd, isLive, type OrderRow } from './order-facts.ts';

/** A renewal failed: the flag is set and the grace period starts, once per period. */
export async function recordRenewalFailure({
  tx,
  brand,
  order,
  now,
  payUrl,
}: {
  tx: Tx;
  brand: Branding;
  /** Locked by the caller. */
  order: OrderRow;
  now: Date;
  /** Where the customer pays (the provider's page, or the sandbox's billing page). */
  payUrl: string;
}): Promise<'failed' | 'already_failed' | 'not_active'> {
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
