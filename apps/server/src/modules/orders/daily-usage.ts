import { type DailyUsage, USAGE_CHART_DAYS } from '@storefront/contract';
import { and, eq, gte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { residentialUsageDaily, residentialUsageTotals } from '../../db/schema.ts';

const DAY_MS = 86_400_000;

/**
 * The residential data the gateway carried per UTC day over the last 30 days, oldest first, with days without traffic as 0:
 * one customer's (the Proxies page) or every customer's together (the admin's inventory).
 */
export async function listDailyUsage({
  db,
  userId,
  now = new Date(),
}: {
  db: Db;
  userId?: string;
  now?: Date;
}): Promise<DailyUsage> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Array.from({ length: USAGE_CHART_DAYS }, (_, index) =>
    new Date(today - (USAGE_CHART_DAYS - 1 - index) * DAY_MS).toISOString().slice(0, 10),
  );
  // Every customer's together are kept per day; one customer's are their own rows.
  const rows =
    userId === undefined
      ? await db
          .select({ day: residentialUsageTotals.day, usedKb: residentialUsageTotals.usedKb })
          .from(residentialUsageTotals)
          .where(gte(residentialUsageTotals.day, days[0] ?? ''))
      : await db
          .select({ day: residentialUsageDaily.day, usedKb: residentialUsageDaily.usedKb })
          .from(residentialUsageDaily)
          .where(and(eq(residentialUsageDaily.userId, userId), gte(residentialUsageDaily.day, days[0] ?? '')));
  const byDay = new Map(rows.map((row) => [row.day, Number(row.usedKb)]));
  return { days: days.map((day) => ({ day, usedInKb: byDay.get(day) ?? 0 })) };
}
