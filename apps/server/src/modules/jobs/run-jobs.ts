import type { SandboxClockReport } from '@storefront/contract';
import { and, asc, count, eq, gt, inArray, isNotNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { coupons, orders, payments, promoCodes } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { reminderEmail } from '../notifications/customer-emails.ts';
import { dispatchOutbox, enqueueEmail } from '../notifications/outbox.ts';
import { handlePaymentEventIn } from '../payments/handle-event.ts';
import type { ProviderName } from '../payments/provider.ts';
import { emailFacts, expireOrder, GRACE_DAYS, type OrderRow } from '../subscriptions/lifecycle.ts';

export interface JobContext {
  db: Db;
  brand: Branding;
  mailer: Mailer;
  log: FastifyBaseLogger;
  provider: ProviderName;
  /** The sandbox's hosted invoices and billing page. */
  sandboxInvoiceUrl?: (invoiceId: string) => string;
  newInvoiceId?: () => string;
}

/** What one run did (the sandbox clock answers it as is). */
export type JobReport = SandboxClockReport;

const LIVE = ['delivered', 'processing'] as const;
const REMINDER_DAYS = 3;
const ABANDONED_AFTER_MS = 7 * 86_400_000;

/**
 * Claims one due order at a time with FOR UPDATE SKIP LOCKED and handles it in the same transaction, so any number of
 * runners share the work and a failure rolls back only that order's step (the next run does it again).
 */
async function eachDue(
  ctx: JobContext,
  where: ReturnType<typeof and>,
  step: (tx: Tx, order: OrderRow) => Promise<boolean>,
  limit = 500,
): Promise<number> {
  let done = 0;
  const skipped: string[] = [];
  for (let i = 0; i < limit; i++) {
    const handled = await ctx.db.transaction(async (tx) => {
      const [order] = await tx
        .select()
        .from(orders)
        .where(skipped.length > 0 ? and(where, notInArray(orders.id, skipped)) : where)
        .orderBy(asc(orders.expiresAt), asc(orders.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!order) return undefined;
      const changed = await step(tx, order);
      if (!changed) skipped.push(order.id);
      return changed;
    });
    if (handled === undefined) break;
    if (handled) done += 1;
  }
  return done;
}

/** What the sandbox charges at period end: the unit price, less the coupon while its duration lasts. */
async function renewalAmount(tx: Tx, order: OrderRow): Promise<{ amountCents: number; discountCents: number }> {
  const subtotal = order.unitPriceCents * order.quantity;
  if (!order.promoCodeId) return { amountCents: subtotal, discountCents: 0 };
  const [coupon] = await tx
    .select({ duration: coupons.duration, months: coupons.durationInMonths })
    .from(promoCodes)
    .innerJoin(coupons, eq(coupons.id, promoCodes.couponId))
    .where(eq(promoCodes.id, order.promoCodeId));
  const [paid] = await tx.select({ value: count() }).from(payments).where(eq(payments.orderId, order.id));
  const applies =
    coupon?.duration === 'forever' || (coupon?.duration === 'repeating' && (paid?.value ?? 0) < (coupon.months ?? 0));
  const discount = applies ? order.discountCents : 0;
  return { amountCents: subtotal - discount, discountCents: discount };
}

/** Runs every due piece of work at `now`: sandbox renewals, the ends of grace periods and cancelled periods, reminders, e-mails. */
export async function runJobs(ctx: JobContext, now: Date): Promise<JobReport> {
  const report: JobReport = {
    now: now.toISOString(),
    renewed: 0,
    failed: 0,
    expired: 0,
    reminded: 0,
    emailsSent: 0,
    abandonedRemoved: 0,
  };

  // 1. The sandbox charges its subscriptions at period end with the card chosen on its pages (Stripe charges its own).
  if (ctx.provider === 'sandbox') {
    await eachDue(
      ctx,
      and(
        eq(orders.provider, 'sandbox'),
        eq(orders.status, 'delivered'),
        eq(orders.cancelled, false),
        eq(orders.paymentFailed, false),
        isNotNull(orders.expiresAt),
        lte(orders.expiresAt, now),
      ),
      async (tx, order) => {
        const period = order.expiresAt?.toISOString() ?? '';
        if (order.sandboxCard === 'declined') {
          const outcome = await handlePaymentEventIn(
            tx,
            'sandbox',
            {
              kind: 'renewal.failed',
              eventId: `sandbox-renewal-failed:${order.id}:${period}`,
              type: 'sandbox.renewal.failed',
              orderId: order.id,
              subscriptionId: null,
              payUrl: `${ctx.brand.appUrl}/sandbox/billing/${order.id}`,
            },
            { brand: ctx.brand, now },
          );
          if (outcome === 'failed') report.failed += 1;
          return outcome === 'failed';
        }
        const invoiceId = ctx.newInvoiceId?.() ?? `in_sandbox_${order.id}_${period}`;
        const { amountCents, discountCents } = await renewalAmount(tx, order);
        const outcome = await handlePaymentEventIn(
          tx,
          'sandbox',
          {
            kind: 'renewal.paid',
            eventId: `sandbox-renewal:${order.id}:${period}`,
            type: 'sandbox.renewal.paid',
            orderId: order.id,
            subscriptionId: null,
            invoice: {
              id: invoiceId,
              hostedUrl: ctx.sandboxInvoiceUrl?.(invoiceId) ?? null,
              amountCents,
              discountCents,
              currency: order.currency,
              paidAt: order.expiresAt ?? now,
            },
            periodEnd: null,
          },
          { brand: ctx.brand, now },
        );
        if (outcome === 'renewed') report.renewed += 1;
        return outcome === 'renewed';
      },
    );
  }

  // 2. Ends: a failed renewal past its grace period, a cancelled order past its period, and (backstop for lost provider
  //    events) a Stripe subscription not renewed within the grace period after its period end.
  const graceAgo = new Date(now.getTime() - GRACE_DAYS * 86_400_000);
  report.expired += await eachDue(
    ctx,
    and(
      inArray(orders.status, [...LIVE]),
      isNotNull(orders.expiresAt),
      or(
        and(eq(orders.paymentFailed, true), lte(orders.graceEndsAt, now)),
        and(eq(orders.cancelled, true), lte(orders.expiresAt, now)),
        and(eq(orders.provider, 'stripe'), lte(orders.expiresAt, graceAgo)),
      ),
    ),
    async (tx, order) => (await expireOrder(tx, ctx.brand, order, now)) === 'expired',
  );

  // 3. A reminder 3 days before each renewal, once per period.
  const soon = new Date(now.getTime() + REMINDER_DAYS * 86_400_000);
  report.reminded += await eachDue(
    ctx,
    and(
      eq(orders.status, 'delivered'),
      eq(orders.cancelled, false),
      eq(orders.paymentFailed, false),
      gt(orders.expiresAt, now),
      lte(orders.expiresAt, soon),
      or(sql`${orders.remindedFor} is null`, sql`${orders.remindedFor} <> ${orders.expiresAt}`),
    ),
    async (tx, order) => {
      if (!order.expiresAt) return false;
      await tx.update(orders).set({ remindedFor: order.expiresAt }).where(eq(orders.id, order.id));
      const { to, facts } = await emailFacts(tx, order);
      const { amountCents } = await renewalAmount(tx, order);
      await enqueueEmail(
        tx,
        `reminder:${order.id}:${order.expiresAt.toISOString()}`,
        reminderEmail(ctx.brand, to, facts, order.expiresAt, amountCents, order.currency),
      );
      return true;
    },
  );

  // 4. Checkouts never paid: a payment page lives at most 24 hours (Stripe's default), so after a week nothing can pay them.
  //    Real time, not the sandbox's clock: a clock moved ahead must not remove the checkout a customer is paying now.
  const abandonedBefore = new Date(Math.min(now.getTime(), Date.now()) - ABANDONED_AFTER_MS);
  const abandoned = await ctx.db
    .delete(orders)
    .where(and(eq(orders.status, 'awaiting_payment'), lte(orders.createdAt, abandonedBefore)))
    .returning({ id: orders.id });
  report.abandonedRemoved = abandoned.length;

  report.emailsSent = await dispatchOutbox(ctx.db, ctx.mailer, ctx.log);
  return report;
}
