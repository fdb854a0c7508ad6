import { type AdminAlerts, ALERT_KINDS, ALERTS_LISTED_MAX, type AlertKind } from '@storefront/contract';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { alerts } from '../../db/schema.ts';
import { describeAlert } from './describe.ts';
import { ALERT_ORDER } from './notify-alerts.ts';

/**
 * GET /api/admin/alerts: the open alerts by kind (in ALERT_KINDS' order), oldest first, at most ALERTS_LISTED_MAX of each,
 * and how many of each are open.
 */
export async function listOpenAlerts({ db }: { db: Db }): Promise<AdminAlerts> {
  const [perKind, ...lists] = await Promise.all([
    db.select({ kind: alerts.kind, n: count() }).from(alerts).where(isNull(alerts.resolvedAt)).groupBy(alerts.kind),
    // Each kind its own list, so that a thousand failing e-mails never hide a pool running out.
    ...ALERT_KINDS.map((kind) =>
      db
        .select()
        .from(alerts)
        .where(and(eq(alerts.kind, kind), isNull(alerts.resolvedAt)))
        .orderBy(...ALERT_ORDER)
        .limit(ALERTS_LISTED_MAX),
    ),
  ]);
  const counts = Object.fromEntries(ALERT_KINDS.map((kind) => [kind, 0])) as Record<AlertKind, number>;
  for (const row of perKind) counts[row.kind] = Number(row.n);
  return {
    alerts: lists.flat().map((row) => {
      const text = describeAlert(row.kind, row.details);
      return { id: row.id, kind: row.kind, summary: text.summary, openedAt: row.openedAt.toISOString(), tab: text.tab };
    }),
    total: Object.values(counts).reduce((sum, n) => sum + n, 0),
    counts,
  };
}
