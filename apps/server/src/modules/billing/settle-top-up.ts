import { TOP_UP_FAILURES_MAX, TOP_UP_RETRY_MINUTES } from '@storefront/contract';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import { topUpSettings, topUps, users } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { PaymentEvent } from '../../payments/provider.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { applyCheckoutPaid } from './checkout-paid.ts';
import { topUpFailedEmail } from './top-up-emails.ts';

const isUuid = (value: string) => z.uuid().safeParse(value).success;

async function lockedTopUp(tx: Tx, topUpId: string) {
  if (!isUuid(topUpId)) return undefined;
  const [row] = await tx.select().from(topUps).where(eq(topUps.id, topUpId)).for('update');
  return row;
}

/**
 * A top-up's payment went through (the charge's own answer, or the provider's event if that came first): its order is
 * paid as any checkout is (the data added, the receipt e-mailed, the entry in Order History) and the count of failures
 * starts again. Paid after a failure was recorded (a payment the bank let through late) it is still honoured: the money
 * was taken, so the data is given.
 */
export async function settleTopUpPaid({
  tx,
  event,
  brand,
  now,
}: {
  tx: Tx;
  event: Extract<PaymentEvent, { kind: 'top_up.paid' }>;
  brand: Branding;
  now: Date;
}): Promise<'unknown_order' | 'already_paid' | 'delivered' | 'processing'> {
  const topUp = await lockedTopUp(tx, event.topUpId);
  if (!topUp?.orderId) return 'unknown_order';
  if (topUp.status === 'paid') return 'already_paid';
  const outcome = await applyCheckoutPaid({
    tx,
    brand,
    event: {
      kind: 'checkout.paid',
      eventId: event.eventId,
      type: event.type,
      orderId: topUp.orderId,
      invoice: event.invoice,
      customerEmail: null,
      subscriptionId: null,
      customerId: null,
      periodEnd: null,
    },
  });
  if (outcome === 'unknown_order') return outcome;
  await tx
    .update(topUps)
    .set({ status: 'paid', message: null, claimedUntil: null, settledAt: now, providerChargeId: event.chargeId })
    .where(eq(topUps.id, topUp.id));
  await tx
    .update(topUpSettings)
    .set({ failuresInARow: 0, retryAfter: null, updatedAt: now })
    .where(eq(topUpSettings.userId, topUp.userId));
  return outcome === 'already_paid' ? 'already_paid' : outcome;
}

/**
 * A top-up's payment failed or needs the customer (3-D Secure): nothing is added, the customer is e-mailed with a way
 * to buy by hand, the next try waits TOP_UP_RETRY_MINUTES, and after TOP_UP_FAILURES_MAX failures in a row top-up
 * switches itself off. Its order stays unpaid (pruned with abandoned checkouts).
 */
export async function settleTopUpFailed({
  tx,
  event,
  brand,
  now,
}: {
  tx: Tx;
  event: Extract<PaymentEvent, { kind: 'top_up.failed' }>;
  brand: Branding;
  now: Date;
}): Promise<'unknown_order' | 'already_failed' | 'failed'> {
  const topUp = await lockedTopUp(tx, event.topUpId);
  if (!topUp) return 'unknown_order';
  if (topUp.status !== 'charging') return 'already_failed';
  await tx
    .update(topUps)
    .set({
      status: event.needsAction ? 'needs_action' : 'failed',
      message: event.message,
      claimedUntil: null,
      settledAt: now,
      ...(event.chargeId && { providerChargeId: event.chargeId }),
    })
    .where(eq(topUps.id, topUp.id));
  const [settings] = await tx
    .update(topUpSettings)
    .set({
      failuresInARow: sql`${topUpSettings.failuresInARow} + 1`,
      retryAfter: new Date(now.getTime() + TOP_UP_RETRY_MINUTES * 60_000),
      updatedAt: now,
    })
    .where(eq(topUpSettings.userId, topUp.userId))
    .returning({
      failures: topUpSettings.failuresInARow,
      enabled: topUpSettings.enabled,
      card: topUpSettings.paymentMethodId,
    });
  const switchedOff = settings !== undefined && settings.enabled && settings.failures >= TOP_UP_FAILURES_MAX;
  if (switchedOff) {
    await tx
      .update(topUpSettings)
      .set({ enabled: false, switchedOffAt: now })
      .where(eq(topUpSettings.userId, topUp.userId));
  }
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, topUp.userId));
  if (user) {
    await enqueueEmail(
      tx,
      `top-up-failed:${topUp.id}`,
      topUpFailedEmail(brand, user.email, {
        ...topUp,
        message: event.message,
        switchedOff,
        triesAgain: !switchedOff && settings?.enabled === true && settings.card !== null,
      }),
    );
  }
  return 'failed';
}
