import { KB_PER_GB, PRODUCTS, topUpMessages } from '@storefront/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { orders, topUps } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { type ChargeOutcome, type PaymentProvider, ProviderError } from '../../payments/provider.ts';
import { STEP_LEASE_SECONDS } from '../../payments/provider-steps.ts';
import { handlePaymentEvent } from './handle-event.ts';

/** Both drivers (node-postgres and PGlite) answer a raw statement with `rows`. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * How long a charge that never got an answer is asked again under its idempotency key: Stripe keeps a key 24 hours,
 * after which asking again would make a second charge.
 */
const ASK_AGAIN_HOURS = 23;

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
  /** Set when the provider made the charge and it was on its way: read again by id. */
  providerChargeId: string | null;
}

const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/** Top-ups of the customer `s` started in the 24 hours before `now`, failed attempts included (the day's cap). */
export const topUpsLastDay = (now: Date) => sql`(select count(*) from top_ups t where t.user_id = s.user_id
  and t.started_at > ${at(now)} - interval '24 hours' and t.started_at <= ${at(now)})`;

/** What the customer `s`'s top-ups paid or being paid cost this calendar month (UTC) (the month's cap). */
export const topUpsThisMonthCents = (now: Date) => sql`(select coalesce(sum(t.amount_cents), 0) from top_ups t
  where t.user_id = s.user_id and t.status in ('paid', 'charging')
  and t.started_at >= date_trunc('month', ${at(now)} at time zone 'UTC') at time zone 'UTC')`;

/** A paid top-up of the customer `s` whose data waits for stock: another would only wait behind it. */
export const topUpWaitsForStock = sql`exists (select 1 from top_ups t join orders o on o.id = t.order_id
  where t.user_id = s.user_id and t.status = 'paid' and o.status = 'processing')`;

/**
 * The customers due a top-up: on, with a card of this provider, not banned, under their threshold, no try waiting after
 * a failure, none on its way or waiting for stock, and within both caps. Read with `s` the settings, `u` the user, `ra`
 * the residential account and `p` the residential product; checked again under the customer's lock (decide).
 */
const due = (provider: string, now: Date): SQL => sql`
  s.enabled and s.payment_method_id is not null and s.provider = ${provider} and not coalesce(u.banned, false)
  and coalesce(ra.total_kb - ra.used_kb, 0) < s.threshold_gb::bigint * ${KB_PER_GB}
  and (s.retry_after is null or s.retry_after <= ${at(now)})
  and not exists (select 1 from top_ups t where t.user_id = s.user_id and t.status = 'charging')
  and not ${topUpWaitsForStock}
  and ${topUpsLastDay(now)} < s.max_per_day
  and ${topUpsThisMonthCents(now)} + p.unit_price_cents * s.amount_gb <= s.monthly_cap_cents`;

const FROM = sql`top_up_settings s join users u on u.id = s.user_id
  left join residential_accounts ra on ra.user_id = s.user_id
  join products p on p.id = 'residential_proxies'`;

/**
 * The periodic job's top-ups: first those a stopped run left charging (asked again as they were decided, so never
 * charged twice), then every customer due one. Each is decided in one transaction, charged outside any, and its outcome
 * recorded in another through the payment events' one code path.
 */
export async function runTopUps(ctx: TopUpContext, now: Date): Promise<{ paid: number; failed: number }> {
  const counts = { paid: 0, failed: 0 };
  const charge = async (next: Charge) => {
    const outcome = await chargeOne(ctx, next, now);
    if (outcome === 'paid') counts.paid += 1;
    if (outcome === 'failed' || outcome === 'needs_action') counts.failed += 1;
  };
  for (const left of await reclaimLeftBehind(ctx, now)) {
    if (ctx.signal?.aborted) return counts;
    // Each held afresh just before it is asked: a long batch must not outlast the lease and be asked twice at once.
    if (await renewLease(ctx.db, left.topUpId)) await charge(left);
  }
  const customers = rowsOf<{ user_id: string }>(
    await ctx.db.execute(sql`select s.user_id from ${FROM} where ${due(ctx.provider.name, now)}
      order by s.user_id limit ${ctx.batchSize}`),
  );
  for (const { user_id: userId } of customers) {
    if (ctx.signal?.aborted) break;
    const decided = await ctx.db.transaction((tx) => decide(tx, ctx, userId, now));
    if (decided) await charge(decided);
  }
  return counts;
}

/**
 * One customer's top-up, if it is still due under the lock of their settings (FOR UPDATE SKIP LOCKED: another runner
 * holding it decides it instead): its order awaiting payment and its row `charging`, with the card it is charged to,
 * held for a lease. The unique index on a customer's charging top-up keeps it to one even so.
 */
async function decide(tx: Tx, ctx: TopUpContext, userId: string, now: Date): Promise<Charge | undefined> {
  // The lock first, then the check in a statement of its own: a statement sees only what was committed before it began,
  // and a runner that decided this customer a moment ago released the lock as it committed its top-up.
  const locked = await tx.execute(sql`select 1 from top_up_settings where user_id = ${userId} for update skip locked`);
  if (rowsOf(locked).length === 0) return undefined;
  const [row] = rowsOf<{
    amount_gb: number;
    unit_price_cents: number;
    provider_customer_id: string | null;
    payment_method_id: string;
  }>(
    await tx.execute(sql`
      select s.amount_gb, p.unit_price_cents, s.provider_customer_id, s.payment_method_id
      from ${FROM} where s.user_id = ${userId} and ${due(ctx.provider.name, now)}`),
  );
  if (!row) return undefined;
  const amountCents = row.unit_price_cents * row.amount_gb;
  const [order] = await tx
    .insert(orders)
    .values({
      userId,
      productId: 'residential_proxies',
      quantity: row.amount_gb,
      unitPriceCents: row.unit_price_cents,
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
      provider: ctx.provider.name,
      providerCustomerId: row.provider_customer_id,
      paymentMethodId: row.payment_method_id,
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
    providerChargeId: null,
  };
}

/** Holds a charging top-up for another lease; false when it is no longer charging (settled meanwhile). */
async function renewLease(db: Db, topUpId: string): Promise<boolean> {
  const held = await db
    .update(topUps)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${STEP_LEASE_SECONDS})` })
    .where(and(eq(topUps.id, topUpId), eq(topUps.status, 'charging')))
    .returning({ id: topUps.id });
  return held.length > 0;
}

/**
 * Top-ups left charging past their lease (a run stopped between the charge and its record, a provider that did not
 * answer, a charge on its way): taken over, to be asked again with the card they were decided with. One the provider
 * can no longer be asked about (decided with another provider than the shop's now, or unanswered for longer than an
 * idempotency key lives) is recorded as failed, in words that do not claim nothing was charged, and logged for the
 * operator.
 */
async function reclaimLeftBehind(ctx: TopUpContext, now: Date): Promise<Charge[]> {
  const { charges, lost } = await ctx.db.transaction(async (tx) => {
    const stale = rowsOf<{
      id: string;
      order_id: string | null;
      user_id: string;
      amount_gb: number;
      amount_cents: number;
      currency: string;
      provider: string;
      provider_customer_id: string | null;
      payment_method_id: string;
      provider_charge_id: string | null;
      too_old: boolean;
    }>(
      await tx.execute(sql`
        select id, order_id, user_id, amount_gb, amount_cents, currency, provider, provider_customer_id,
          payment_method_id, provider_charge_id,
          created_at < now() - make_interval(hours => ${ASK_AGAIN_HOURS}) as too_old
        from top_ups
        where status = 'charging' and claimed_until <= now()
        order by claimed_until limit ${ctx.batchSize}
        for update skip locked`),
    );
    const charges: Charge[] = [];
    const lost: { id: string; userId: string }[] = [];
    for (const row of stale) {
      await tx
        .update(topUps)
        .set({ claimedUntil: sql`now() + make_interval(secs => ${STEP_LEASE_SECONDS})` })
        .where(eq(topUps.id, row.id));
      if (!row.order_id || row.provider !== ctx.provider.name || (row.too_old && !row.provider_charge_id)) {
        lost.push({ id: row.id, userId: row.user_id });
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
        providerChargeId: row.provider_charge_id,
      });
    }
    return { charges, lost };
  });
  for (const { id, userId } of lost) {
    ctx.log.error(
      { topUpId: id, userId },
      'automatic top-up: the provider could not be asked about this charge again; check it at the provider',
    );
    await record(ctx, now, {
      kind: 'top_up.failed',
      eventId: `top-up:${id}:failed`,
      type: 'top_up.failed',
      topUpId: id,
      needsAction: false,
      message: topUpMessages.unconfirmed,
      chargeId: null,
    });
  }
  return charges;
}

type TopUpEvent = Extract<Parameters<typeof handlePaymentEvent>[0]['event'], { kind: 'top_up.paid' | 'top_up.failed' }>;

const record = (ctx: TopUpContext, now: Date, event: TopUpEvent) =>
  handlePaymentEvent({ db: ctx.db, provider: ctx.provider.name, event, brand: ctx.brand, now });

/**
 * Charges the saved card (or, for a charge already on its way, reads it again by id) and records the answer as the
 * provider's event would (the same handler, the top-up's own event id for each outcome). A provider that cannot be
 * reached, or a charge still on its way, leaves the top-up charging: its lease runs out and a later run asks again.
 */
async function chargeOne(ctx: TopUpContext, next: Charge, now: Date): Promise<ChargeOutcome['status'] | 'unreachable'> {
  let outcome: ChargeOutcome;
  try {
    outcome = next.providerChargeId
      ? await ctx.provider.chargeStatus(next.providerChargeId)
      : await ctx.provider.chargeSavedCard({
          ...next,
          description: `Automatic top-up: ${next.amountGb} GB of ${PRODUCTS.residential_proxies.label}`,
        });
  } catch (error) {
    if (!(error instanceof ProviderError) || error.kind !== 'refused') {
      ctx.log.warn(
        { err: error, topUpId: next.topUpId },
        'automatic top-up: the provider did not answer; retried later',
      );
      return 'unreachable';
    }
    outcome = { status: 'failed', message: error.message, chargeId: null };
  }
  if (outcome.status === 'pending') {
    if (outcome.chargeId && outcome.chargeId !== next.providerChargeId) {
      await ctx.db
        .update(topUps)
        .set({ providerChargeId: outcome.chargeId })
        .where(and(eq(topUps.id, next.topUpId), eq(topUps.status, 'charging')));
    }
    return 'pending';
  }
  const base = { type: `top_up.${outcome.status}`, topUpId: next.topUpId, chargeId: outcome.chargeId };
  const result = await record(
    ctx,
    now,
    outcome.status === 'paid'
      ? { ...base, kind: 'top_up.paid', eventId: `top-up:${next.topUpId}:paid`, invoice: outcome.invoice }
      : {
          ...base,
          kind: 'top_up.failed',
          eventId: `top-up:${next.topUpId}:failed`,
          needsAction: outcome.status === 'needs_action',
          message: outcome.message,
        },
  );
  ctx.log.info({ topUpId: next.topUpId, userId: next.userId, outcome: result }, 'automatic top-up');
  return outcome.status;
}
