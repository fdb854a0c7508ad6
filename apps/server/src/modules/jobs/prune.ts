import { type SQL, sql } from 'drizzle-orm';
import type { RetentionConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { MAX_ATTEMPTS } from '../notifications/outbox.ts';

/** What the periodic job prunes: rows that serve nothing once old. Payments, orders, the audit log and usage stay. */
export const PRUNED = [
  'sent_emails',
  'failed_emails',
  'webhook_events',
  'sessions',
  'verifications',
  'abandoned_checkouts',
  'resolved_alerts',
  'expired_leases',
  'usage_hours',
  'usage_days',
] as const;
export type Pruned = (typeof PRUNED)[number];
export type PrunedCounts = Record<Pruned, number>;

export const DEFAULT_RETENTION: RetentionConfig = {
  sentEmailsDays: 30,
  webhookEventsDays: 45,
  expiredSessionsDays: 7,
  abandonedCheckoutsDays: 7,
  resolvedAlertsDays: 90,
  batchSize: 1000,
  batchesPerRun: 50,
};

const DAY_MS = 86_400_000;
const daysBefore = (at: Date, days: number) => new Date(at.getTime() - days * DAY_MS);
const monthsBefore = (at: Date, months: number) => {
  const before = new Date(at);
  before.setUTCMonth(before.getUTCMonth() - months);
  return before;
};
/** How long usage analytics are kept: what the privacy page tells customers. */
export const USAGE_HOURS_DAYS = 90;
export const USAGE_DAYS_MONTHS = 13;

/**
 * One batch of each table: `limit` rows past their retention, by an index on the time that ages them. Rows another
 * statement holds are skipped (SKIP LOCKED), so a prune never waits on the shop, nor two runners on each other.
 */
function batchOf(what: Pruned, cutoffs: Record<Pruned, Date>, limit: number): SQL {
  const at = cutoffs[what];
  switch (what) {
    case 'sent_emails':
      return sql`delete from email_outbox where id in (
        select id from email_outbox where sent_at < ${at} limit ${limit} for update skip locked)`;
    // Never sent and no try left (the alert told of them): by their last try, in the index of unsent ones.
    case 'failed_emails':
      return sql`delete from email_outbox where id in (
        select id from email_outbox where sent_at is null and attempts >= ${MAX_ATTEMPTS} and next_attempt_at < ${at}
        limit ${limit} for update skip locked)`;
    case 'webhook_events':
      return sql`delete from webhook_events where (provider, event_id) in (
        select provider, event_id from webhook_events where received_at < ${at} limit ${limit} for update skip locked)`;
    case 'sessions':
      return sql`delete from sessions where id in (
        select id from sessions where expires_at < ${at} limit ${limit} for update skip locked)`;
    case 'verifications':
      return sql`delete from verifications where id in (
        select id from verifications where expires_at < ${at} limit ${limit} for update skip locked)`;
    // Unpaid checkouts: by their partial index (orders_coupon_hold_idx holds only these, few at any time).
    case 'abandoned_checkouts':
      return sql`delete from orders where id in (
        select id from orders o where status = 'awaiting_payment' and created_at <= ${at}
          -- A top-up still being charged keeps its order: a late payment is delivered on it.
          and not exists (select 1 from top_ups t where t.order_id = o.id and t.status = 'charging')
        limit ${limit} for update skip locked)`;
    case 'resolved_alerts':
      return sql`delete from alerts where id in (
        select id from alerts where resolved_at < ${at} limit ${limit} for update skip locked)`;
    // Usage analytics: by the hour for 90 days, by the day (with domains) for 13 months.
    case 'usage_hours':
      return sql`delete from residential_usage_hourly where (user_id, hour, proxy_user_id, country) in (
        select user_id, hour, proxy_user_id, country from residential_usage_hourly where hour < ${at}
        limit ${limit} for update skip locked)`;
    case 'usage_days':
      return sql`delete from residential_usage_domains where (user_id, day, proxy_user_id, country, domain) in (
        select user_id, day, proxy_user_id, country, domain from residential_usage_domains
        where day < ${at.toISOString().slice(0, 10)} limit ${limit} for update skip locked)`;
    // Slices of residential data left by a gateway that died, of an account no gateway has reserved for since.
    case 'expired_leases':
      return sql`delete from residential_gateway_leases where (user_id, proxy_user_id, gateway_id) in (
        select user_id, proxy_user_id, gateway_id from residential_gateway_leases where expires_at < ${at}
        limit ${limit} for update skip locked)`;
  }
}

/**
 * Deletes what is past its retention: each table in batches of `batchSize` rows, each batch one short statement of its
 * own (no transaction around them, so no lock lasts longer than one batch), at most `batchesPerRun` batches of each
 * table a run; what is left goes in the next runs. A stop ends it between two batches.
 */
export async function pruneOldRows(
  ctx: { db: Db; retention?: RetentionConfig; signal?: AbortSignal },
  now: Date,
): Promise<PrunedCounts> {
  const retention = ctx.retention ?? DEFAULT_RETENTION;
  // By real time, never the sandbox's clock: a clock moved ahead must not remove the sessions signed in now, nor the
  // checkout a customer is paying now.
  const at = new Date(Math.min(now.getTime(), Date.now()));
  const cutoffs: Record<Pruned, Date> = {
    sent_emails: daysBefore(at, retention.sentEmailsDays),
    failed_emails: daysBefore(at, retention.sentEmailsDays),
    webhook_events: daysBefore(at, retention.webhookEventsDays),
    sessions: daysBefore(at, retention.expiredSessionsDays),
    verifications: daysBefore(at, retention.expiredSessionsDays),
    abandoned_checkouts: daysBefore(at, retention.abandonedCheckoutsDays),
    resolved_alerts: daysBefore(at, retention.resolvedAlertsDays),
    expired_leases: daysBefore(at, 1),
    usage_hours: daysBefore(at, USAGE_HOURS_DAYS),
    usage_days: monthsBefore(at, USAGE_DAYS_MONTHS),
  };
  const counts = Object.fromEntries(PRUNED.map((what) => [what, 0])) as PrunedCounts;
  for (const what of PRUNED) {
    for (let batch = 0; batch < retention.batchesPerRun && !ctx.signal?.aborted; batch++) {
      const deleted = await affectedRows(ctx.db, batchOf(what, cutoffs, retention.batchSize));
      counts[what] += deleted;
      if (deleted < retention.batchSize) break;
    }
  }
  return counts;
}

/** Rows a statement changed, as node-postgres (rowCount) or PGlite (affectedRows) says it. */
async function affectedRows(db: Db, statement: SQL): Promise<number> {
  const result = (await db.execute(statement)) as { rowCount?: number | null; affectedRows?: number };
  return Number(result.rowCount ?? result.affectedRows ?? 0);
}
