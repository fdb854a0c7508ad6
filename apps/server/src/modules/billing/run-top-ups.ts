import { KB_PER_GB, PRODUCTS, topUpMessages } from '@storefront/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { orders, products, topUps } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { type ChargeOutcome, type PaymentProvider, ProviderError } from '../../payments/provider.ts';
import { STEP_LEASE_SECONDS } from '../../payments/provider-steps.ts';
import { handlePaymentEvent } from './handle-event.ts';

/** Both drivers (node-postgres and PGlite) answer a raw statement with `rows`. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export interface TopUpContext {
  db: Db;
  brand: Branding;
  log: FastifyBaseLogger;
  provider: PaymentProvider;
  currency: string;
  signal?: AbortSignal;
  /** Customers looked at in one run; the next run takes the rest. */
  batchSize: number;
}

interface Charge {
  topUpId: string;
  orderId: string;
  userId: string;
  amountGb: number;
  amountCents: number;
  currency: string;
  providerCustomerId: string | null;
  paymentMethodId: string;
}

/**
 * The customers whose data left is under their threshold with top-up on, a card of this provider saved, no try waiting
 * after a failure and no top-up on its way. The same conditions are checked again under the customer's lock (decide).
 */
const DUE = (provider: string, now: Date) => sql`
  s.enabled and s.payment_method_id is not null and s.provider = ${provider}
  and coalesce(ra.total_kb - ra.used_kb, 0) < s.threshold_gb::bigint * ${KB_PER_GB}
  and (s.retry_after is null or s.retry_after <= ${now.toISOString()}::timestamptz)
  and not exists (select 1 from top_ups t where t.user_id = s.user_id and t.status = 'charging')`;

/**
 * The periodic job's top-ups: first those a stopped run left charging (asked again under the same idempotency key, so
 * never charged twice), then every customer now under their threshold, within their caps. Each is decided in one
 * transaction, charged outside any, and its outcome recorded in another through the payment events' one code path.
 */
export async function runTopUps(ctx: TopUpContext, now: Date): Promise<{ paid: number; failed: number }> {
  const counts = { paid: 0, failed: 0 };
  const charge = async (due: Charge) => {
    const outcome = await chargeOne(ctx, due, now);
    if (outcome === 'paid') counts.paid += 1;
    if (outcome === 'failed') counts.failed += 1;
  };
  for (const left of await reclaimLeftBehind(ctx, now)) {
    if (ctx.signal?.aborted) return counts;
    await charge(left);
  }
  const due = rowsOf<{ user_id: string }>(
    await ctx.db.execute(sql`
      select s.user_id from top_up_settings s left join residential_accounts ra on ra.user_id = s.user_id
      where ${DUE(ctx.provider.name, now)} limit ${ctx.batchSize}`),
  );
  for (const { user_id: userId } of due) {
    if (ctx.signal?.aborted) break;
    const decided = await ctx.db.transaction((tx) => decide(tx, ctx, userId, now));
    if (decided) await charge(decided);
  }
  return counts;
}

/**
 * One customer's top-up, if it is still due under the lock of their settings (FOR UPDATE SKIP LOCKED: another runner
 * holding it decides it instead) and within their caps: its order awaiting payment and its row `charging`, held for a
 * lease. The unique index on a customer's charging top-up keeps it to one even so.
 */
async function decide(tx: Tx, ctx: TopUpContext, userId: string, now: Date): Promise<Charge | undefined> {
  const [row] = rowsOf<{
    amount_gb: number;
    monthly_cap_cents: number;
    max_per_day: number;
    provider_customer_id: string | null;
    payment_method_id: string;
    last_day: string | number;
    this_month_cents: string | number;
  }>(
    await tx.execute(sql`
      select s.amount_gb, s.monthly_cap_cents, s.max_per_day, s.provider_customer_id, s.payment_method_id,
        (select count(*) from top_ups t where t.user_id = s.user_id
          and t.started_at > ${now.toISOString()}::timestamptz - interval '1 day'
          and t.started_at <= ${now.toISOString()}::timestamptz) as last_day,
        (select coalesce(sum(t.amount_cents), 0) from top_ups t where t.user_id = s.user_id
          and t.status in ('paid', 'charging')
          and t.started_at >= date_trunc('month', ${now.toISOString()}::timestamptz at time zone 'UTC') at time zone 'UTC')
          as this_month_cents
      from top_up_settings s left join residential_accounts ra on ra.user_id = s.user_id
      where s.user_id = ${userId} and ${DUE(ctx.provider.name, now)}
      for update of s skip locked`),
  );
  if (!row) return undefined;
  const [catalogue] = await tx
    .select({ unitPriceCents: products.unitPriceCents })
    .from(products)
    .where(eq(products.id, 'residential_proxies'));
  if (!catalogue) return undefined;
  const amountCents = catalogue.unitPriceCents * row.amount_gb;
  // Caps are never passed: a top-up that would pass one waits (the tab says why) until the day or the month turns.
  if (Number(row.last_day) >= row.max_per_day) return undefined;
  if (Number(row.this_month_cents) + amountCents > row.monthly_cap_cents) return undefined;

  const [order] = await tx
    .insert(orders)
    .values({
      userId,
      productId: 'residential_proxies',
      quantity: row.amount_gb,
      unitPriceCents: catalogue.unitPriceCents,
      totalCents: amountCents,
      currency: ctx.currency,
      provider: ctx.provider.name,
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('order insert returned nothing');
  const [topUp] = await tx
    .insert(topUps)
    .values({
      userId,
      orderId: order.id,
      amountGb: row.amount_gb,
      amountCents,
      currency: ctx.currency,
      status: 'charging',
      claimedUntil: sql`now() + make_interval(secs => ${STEP_LEASE_SECONDS})`,
      startedAt: now,
    })
    .returning({ id: topUps.id });
  if (!topUp) throw new Error('top-up insert returned nothing');
  return {
    topUpId: topUp.id,
    orderId: order.id,
    userId,
    amountGb: row.amount_gb,
    amountCents,
    currency: ctx.currency,
    providerCustomerId: row.provider_customer_id,
    paymentMethodId: row.payment_method_id,
  };
}

/**
 * Top-ups left charging past their lease (a run stopped between the charge and its record): taken over with a new
 * lease. One whose card is gone since, or was saved with another provider than the shop's now, cannot be asked again:
 * it is recorded as failed.
 */
async function reclaimLeftBehind(ctx: TopUpContext, now: Date): Promise<Charge[]> {
  const { charges, orphans } = await ctx.db.transaction(async (tx) => {
    const stale = rowsOf<{
      id: string;
      order_id: string | null;
      user_id: string;
      amount_gb: number;
      amount_cents: number;
      currency: string;
      provider: string | null;
      provider_customer_id: string | null;
      payment_method_id: string | null;
    }>(
      await tx.execute(sql`
        select t.id, t.order_id, t.user_id, t.amount_gb, t.amount_cents, t.currency,
          s.provider, s.provider_customer_id, s.payment_method_id
        from top_ups t left join top_up_settings s on s.user_id = t.user_id
        where t.status = 'charging' and t.claimed_until <= now()
        order by t.claimed_until limit ${ctx.batchSize}
        for update of t skip locked`),
    );
    const charges: Charge[] = [];
    const orphans: string[] = [];
    for (const row of stale) {
      await tx
        .update(topUps)
        .set({ claimedUntil: sql`now() + make_interval(secs => ${STEP_LEASE_SECONDS})` })
        .where(and(eq(topUps.id, row.id), eq(topUps.status, 'charging')));
      if (!row.order_id || !row.payment_method_id || row.provider !== ctx.provider.name) {
        orphans.push(row.id);
        continue;
      }
      charges.push({
        topUpId: row.id,
        orderId: row.order_id,
        userId: row.user_id,
        amountGb: row.amount_gb,
        amountCents: row.amount_cents,
        currency: row.currency,
        providerCustomerId: row.provider_customer_id,
        paymentMethodId: row.payment_method_id,
      });
    }
    return { charges, orphans };
  });
  for (const topUpId of orphans) {
    await handlePaymentEvent({
      db: ctx.db,
      provider: ctx.provider.name,
      brand: ctx.brand,
      now,
      event: {
        kind: 'top_up.failed',
        eventId: `top-up:${topUpId}:failed`,
        type: 'top_up.failed',
        topUpId,
        needsAction: false,
        message: topUpMessages.cardGone,
      },
    });
  }
  return charges;
}

/**
 * Charges the saved card and records the answer as the provider's event would (the same handler, the top-up's own
 * event id for each outcome). A provider that cannot be reached leaves the top-up charging: its lease runs out and a
 * later run asks again under the same idempotency key.
 */
async function chargeOne(ctx: TopUpContext, due: Charge, now: Date): Promise<ChargeOutcome['status'] | 'unreachable'> {
  let outcome: ChargeOutcome;
  try {
    outcome = await ctx.provider.chargeSavedCard({
      ...due,
      description: `Automatic top-up: ${due.amountGb} GB of ${PRODUCTS.residential_proxies.label}`,
    });
  } catch (error) {
    if (!(error instanceof ProviderError) || error.kind !== 'refused') {
      ctx.log.warn(
        { err: error, topUpId: due.topUpId },
        'automatic top-up: the provider did not answer; retried later',
      );
      return 'unreachable';
    }
    outcome = { status: 'failed', message: error.message };
  }
  if (outcome.status === 'pending') return 'pending';
  const base = { type: `top_up.${outcome.status}`, topUpId: due.topUpId };
  const event =
    outcome.status === 'paid'
      ? { ...base, kind: 'top_up.paid' as const, eventId: `top-up:${due.topUpId}:paid`, invoice: outcome.invoice }
      : {
          ...base,
          kind: 'top_up.failed' as const,
          eventId: `top-up:${due.topUpId}:failed`,
          needsAction: outcome.status === 'needs_action',
          message: outcome.message,
        };
  const result = await handlePaymentEvent({ db: ctx.db, provider: ctx.provider.name, event, brand: ctx.brand, now });
  ctx.log.info({ topUpId: due.topUpId, userId: due.userId, outcome: result }, 'automatic top-up');
  return outcome.status === 'paid' ? 'paid' : 'failed';
}
