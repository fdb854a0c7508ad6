import {
  formatDate,
  formatMoney,
  TOP_UP_HISTORY_SIZE,
  type TopUp,
  type TopUpSettingsRequest,
  topUpMessages,
} from '@storefront/contract';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { products, topUpSettings, topUps } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { topUpsLastDay, topUpsThisMonthCents, topUpWaitsForStock } from '../billing/run-top-ups.ts';
import { defaultSettings } from '../billing/save-card.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The Residential tab's automatic top-up: the settings (the defaults before any change), the card of the shop's
 * provider, what this calendar month (UTC) and the last 24 hours have used of the caps, why none would start now, and
 * the latest top-ups. `now` is the job's time (the sandbox's clock, when moved), as the caps are counted by it.
 */
export async function readTopUp({
  db,
  userId,
  provider,
  currency,
  now,
}: {
  db: Db;
  userId: string;
  provider: PaymentProvider['name'];
  currency: string;
  now: Date;
}): Promise<TopUp> {
  const [[settings], [catalogue], history, [usage]] = await Promise.all([
    db.select().from(topUpSettings).where(eq(topUpSettings.userId, userId)),
    db.select({ unitPriceCents: products.unitPriceCents }).from(products).where(eq(products.id, 'residential_proxies')),
    db
      .select()
      .from(topUps)
      .where(eq(topUps.userId, userId))
      .orderBy(desc(topUps.startedAt), desc(topUps.id))
      .limit(TOP_UP_HISTORY_SIZE),
    db
      .execute(sql`
        select ${topUpsLastDay(now)} as last_day, ${topUpsThisMonthCents(now)} as this_month_cents,
          ${topUpWaitsForStock} as waits_for_stock
        from (select ${userId}::text as user_id) s`)
      .then((result) =>
        rowsOf<{ last_day: string | number; this_month_cents: string | number; waits_for_stock: boolean }>(result),
      ),
  ]);
  const current = settings ?? { ...defaultSettings, failuresInARow: 0, retryAfter: null, switchedOffAt: null };
  const card =
    settings?.paymentMethodId && settings.provider === provider && settings.cardLabel && settings.cardSavedAt
      ? { label: settings.cardLabel, savedAt: settings.cardSavedAt.toISOString() }
      : null;
  const unitPriceCents = catalogue?.unitPriceCents ?? 0;
  const lastDay = Number(usage?.last_day ?? 0);
  const thisMonthCents = Number(usage?.this_month_cents ?? 0);
  const charging = history.some((entry) => entry.status === 'charging');
  // On, as the job sees it: with a card of the shop's provider (a card of another provider is never charged).
  const enabled = current.enabled && card !== null;
  let waiting: string | null = null;
  if (current.enabled && !card) {
    waiting = topUpMessages.noCardForProvider;
  } else if (enabled && !charging) {
    if (usage?.waits_for_stock) {
      waiting = topUpMessages.waitingForStock;
    } else if (current.retryAfter && current.retryAfter > now) {
      waiting = topUpMessages.retryAfter(`${formatDate(current.retryAfter, 'date-time', 'UTC')} UTC`);
    } else if (lastDay >= current.maxPerDay) {
      waiting = topUpMessages.dailyLimitReached(lastDay);
    } else if (thisMonthCents + unitPriceCents * current.amountGb > current.monthlyCapCents) {
      waiting = topUpMessages.monthlyCapReached;
    }
  }
  return {
    enabled,
    thresholdGb: current.thresholdGb,
    amountGb: current.amountGb,
    monthlyCapDollars: Math.floor(current.monthlyCapCents / 100),
    maxPerDay: current.maxPerDay,
    card,
    unitPriceCents,
    currency,
    spentThisMonthCents: thisMonthCents,
    topUpsLastDay: lastDay,
    failuresInARow: current.failuresInARow,
    switchedOffAt: current.switchedOffAt?.toISOString() ?? null,
    waiting,
    history: history.map((entry) => ({
      id: entry.id,
      startedAt: entry.startedAt.toISOString(),
      amountGb: entry.amountGb,
      amountCents: entry.amountCents,
      currency: entry.currency,
      status: entry.status,
      message: entry.message,
      orderId: entry.status === 'paid' ? entry.orderId : null,
    })),
  };
}

/**
 * PUT /api/residential/top-up: the whole of the settings. On needs a card of the shop's provider and a cap that one
 * top-up fits in; turning it on again starts the count of failures afresh.
 */
export async function saveTopUp({
  db,
  userId,
  provider,
  currency,
  request,
}: {
  db: Db;
  userId: string;
  provider: PaymentProvider['name'];
  currency: string;
  request: TopUpSettingsRequest;
}): Promise<void> {
  await db.transaction(async (tx) => {
    const [settings] = await tx.select().from(topUpSettings).where(eq(topUpSettings.userId, userId)).for('update');
    const monthlyCapCents = request.monthlyCapDollars * 100;
    if (request.enabled) {
      if (!settings?.paymentMethodId || settings.provider !== provider) {
        throw new AppError('BAD_REQUEST', topUpMessages.needCard);
      }
      const [catalogue] = await tx
        .select({ unitPriceCents: products.unitPriceCents })
        .from(products)
        .where(eq(products.id, 'residential_proxies'));
      const priceCents = (catalogue?.unitPriceCents ?? 0) * request.amountGb;
      if (priceCents > monthlyCapCents) {
        throw new AppError(
          'BAD_REQUEST',
          topUpMessages.capBelowOneTopUp(formatMoney(monthlyCapCents, currency), formatMoney(priceCents, currency)),
        );
      }
    }
    const values = {
      enabled: request.enabled,
      thresholdGb: request.thresholdGb,
      amountGb: request.amountGb,
      monthlyCapCents,
      maxPerDay: request.maxPerDay,
      updatedAt: new Date(),
      ...(request.enabled && !settings?.enabled && { failuresInARow: 0, retryAfter: null, switchedOffAt: null }),
    };
    await tx
      .insert(topUpSettings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: topUpSettings.userId, set: values });
  });
}
