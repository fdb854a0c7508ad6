import type { SandboxClockReport } from '@storefront/contract';
import { and, asc, eq, gt, inArray, isNotNull, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { JobsConfig } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { PaymentProvider, ProviderName } from '../../payments/provider.ts';
import { createSandboxInvoices } from '../../payments/sandbox-provider.ts';
import { expireOrder } from '../billing/expire-order.ts';
import { emailFacts, GRACE_DAYS, type OrderRow } from '../billing/order-facts.ts';
import { renewalAmount } from '../billing/renewal-amount.ts';
import { runTopUps } from '../billing/run-top-ups.ts';
import { chargeSandboxRenewal, failSandboxRenewal } from '../billing/sandbox-renewal.ts';
import { queueUsageEmails } from '../customer-settings/usage-emails.ts';
import { reminderEmail } from '../notifications/customer-emails.ts';
import { dispatchOutbox, enqueueEmail } from '../notifications/outbox.ts';
import { queueProxyUserUsageEmails } from '../proxy-users/proxy-user-usage-emails.ts';
import { DEFAULT_RETENTION, PRUNED, type Pruned, pruneOldRows } from './prune.ts';

export interface JobContext {
  db: Db;
  brand: Branding;
  mailer: Mailer;
  log: FastifyBaseLogger;
  provider: ProviderName;
  /** Aborted when the process stops: the run ends between two units of work (each unit is one transaction). */
  signal?: AbortSignal;
  /** How much a run does and what it keeps (JOBS_BATCH_SIZE, RETENTION_*…); DEFAULT_JOBS when absent. */
  settings?: JobsConfig;
  /** Told the rows each prune deleted (the metrics). */
  onPruned?: (what: Pruned, rows: number) => void;
  /** The provider that charges automatic top-ups, in the shop's currency; without it no top-up is made. */
  payments?: { provider: PaymentProvider; currency: string };
}

/** The settings' defaults (config-schema.ts): for a context made without them. */
export const DEFAULT_JOBS: JobsConfig = { batchSize: 5000, emailBatchSize: 5000, retention: DEFAULT_RETENTION };

/** What one run did (the sandbox clock answers it as is). */
export type JobReport = SandboxClockReport;

const LIVE = ['delivered', 'processing'] as const;
const REMINDER_DAYS = 3;

/**
 * Claims one due order at a time with FOR UPDATE SKIP LOCKED and handles it in the same transaction, so any number of
 * runners share the work and a failure rolls back only that order's step (the next run does it again).
 */
async function eachDue(
  ctx: JobContext,
  where: SQL | undefined,
  step: (tx: Tx, order: OrderRow) => Promise<boolean>,
): Promise<number> {
  const limit = (ctx.settings ?? DEFAULT_JOBS).batchSize;
  let done = 0;
  const skipped: string[] = [];
  for (let i = 0; i < limit && !ctx.signal?.aborted; i++) {
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

/** A run at `at` that did nothing (yet). */
export function emptyReport(at: Date): JobReport {
  return {
    now: at.toISOString(),
    renewed: 0,
    failed: 0,
    expired: 0,
    reminded: 0,
    emailsSent: 0,
    abandonedRemoved: 0,
    toppedUp: 0,
    topUpsFailed: 0,
  };
}

/**
 * Runs every due piece of work at `now`: sandbox renewals, the ends of grace periods and cancelled periods, reminders,
 * e-mails, then the pruning of what is past its retention (abandoned checkouts among it).
 */
export async function runJobs(ctx: JobContext, now: Date): Promise<JobReport> {
  const report = emptyReport(now);
  if (ctx.provider === 'sandbox') Object.assign(report, await renewSandboxSubscriptions(ctx, now));
  report.expired = await expireEndedOrders(ctx, now);
  report.reminded = await remindBeforeRenewals(ctx, now);
  // Automatic top-ups before the usage e-mails, so that an account topped up is not told its data ran out.
  if (ctx.payments && !ctx.signal?.aborted) {
    const settings = ctx.settings ?? DEFAULT_JOBS;
    const topUps = await runTopUps({ ...ctx, ...ctx.payments, batchSize: settings.batchSize }, now);
    report.toppedUp = topUps.paid;
    report.topUpsFailed = topUps.failed;
  }
  // Residential data at 80 % and 100 %: an e-mail each, once per purchase level (for a proxy user, per allowance and
  // period), sent with the rest just below.
  if (ctx.signal?.aborted) return report;
  await queueUsageEmails(ctx);
  if (ctx.signal?.aborted) return report;
  await queueProxyUserUsageEmails(ctx);
  if (ctx.signal?.aborted) return report;
  const settings = ctx.settings ?? DEFAULT_JOBS;
  report.emailsSent = await dispatchOutbox(ctx.db, ctx.mailer, ctx.log, settings.emailBatchSize, ctx.signal);
  if (ctx.signal?.aborted) return report;
  const pruned = await pruneOldRows({ db: ctx.db, retention: settings.retention, signal: ctx.signal }, now);
  report.abandonedRemoved = pruned.abandoned_checkouts;
  for (const what of PRUNED) if (pruned[what] > 0) ctx.onPruned?.(what, pruned[what]);
  if (PRUNED.some((what) => pruned[what] > 0)) ctx.log.info({ pruned }, 'rows past their retention deleted');
  return report;
}

/** The sandbox charges its subscriptions at period end with the card chosen on its pages (Stripe charges its own). */
async function renewSandboxSubscriptions(ctx: JobContext, now: Date): Promise<{ renewed: number; failed: number }> {
  const invoices = createSandboxInvoices(ctx.brand.appUrl);
  const counts = { renewed: 0, failed: 0 };
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
      if (order.sandboxCard === 'declined') {
        const outcome = await failSandboxRenewal({ tx, brand: ctx.brand, order, now });
        if (outcome === 'failed') counts.failed += 1;
        return outcome === 'failed';
      }
      const outcome = await chargeSandboxRenewal({
        tx,
        brand: ctx.brand,
        invoices,
        order,
        paidAt: order.expiresAt ?? now,
        now,
      });
      if (outcome === 'renewed') counts.renewed += 1;
      return outcome === 'renewed';
    },
  );
  return counts;
}

/**
 * The ends: a failed renewal past its grace period, a cancelled order past its period, and (backstop for lost provider
 * events) a Stripe subscription not renewed within the grace period after its period end.
 */
function expireEndedOrders(ctx: JobContext, now: Date): Promise<number> {
  const graceAgo = new Date(now.getTime() - GRACE_DAYS * 86_400_000);
  return eachDue(
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
    async (tx, order) => (await expireOrder({ tx, brand: ctx.brand, order, endedAt: now })) === 'expired',
  );
}

/**
 * A reminder 3 days before each renewal, once per period. Claimed by orders_remind_idx, which holds only the orders not
 * reminded of their period end (its condition is written here as in the index, so the planner picks it); the period end
 * is copied in the database, at its own precision (a JavaScript date keeps milliseconds, PostgreSQL microseconds).
 */
function remindBeforeRenewals(ctx: JobContext, now: Date): Promise<number> {
  const soon = new Date(now.getTime() + REMINDER_DAYS * 86_400_000);
  return eachDue(
    ctx,
    and(
      sql`${orders.status} = 'delivered' and not ${orders.cancelled} and not ${orders.paymentFailed}
        and ${orders.remindedFor} is distinct from ${orders.expiresAt}`,
      gt(orders.expiresAt, now),
      lte(orders.expiresAt, soon),
    ),
    async (tx, order) => {
      if (!order.expiresAt) return false;
      await tx
        .update(orders)
        .set({ remindedFor: sql`${orders.expiresAt}` })
        .where(eq(orders.id, order.id));
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
}
