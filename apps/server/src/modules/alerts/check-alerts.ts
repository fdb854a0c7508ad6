import { ALERT_KIND_TITLES, type AlertKind, PRODUCT_IDS, PRODUCTS, type ProductId } from '@storefront/contract';
import { and, eq, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { AlertsConfig } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { alerts, emailOutbox, featureFlags, jobState, orders } from '../../db/schema.ts';
import { PERIODIC_JOB } from '../../lib/periodic-job.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { getStock } from '../catalogue/get-pricing.ts';
import { MAX_ATTEMPTS } from '../notifications/outbox.ts';
import { type AlertDetails, describeAlert } from './describe.ts';

/** Who opens and resolves alerts in the audit log: the shop itself, not a person. */
export const ALERT_ACTOR: Actor = { id: 'system', email: 'system (alerts)' };

/** An e-mail failing this long opens an alert. */
export const OUTBOX_FAILING_AFTER_MS = 60 * 60_000;
/** The periodic job is stuck after this many failures in a row, or this many of its intervals without a success. */
export const JOB_STUCK_AFTER = 3;
/** At most this many alerts of a kind are opened by one check (an outage of the mail server fails thousands). */
const OPEN_AT_ONCE = 200;

export interface AlertCheckContext {
  db: Db;
  settings: AlertsConfig;
}

export interface CheckOutcome {
  opened: number;
  resolved: number;
}

type Row = { id: string; kind: AlertKind; subject: string; details: Record<string, unknown> };

const sentenceOf = (row: Pick<Row, 'kind' | 'details'>) =>
  `${ALERT_KIND_TITLES[row.kind]}: ${describeAlert(row.kind, row.details).summary}`;

/** The audit entries of alerts just opened or resolved, in the transaction that changed them. */
async function audit(tx: Tx, rows: readonly Row[], action: 'alert.open' | 'alert.resolve') {
  for (const row of rows) {
    await recordAudit({
      tx,
      actor: ALERT_ACTOR,
      action,
      summary: action === 'alert.open' ? `Opened: ${sentenceOf(row)}` : `Resolved: ${sentenceOf(row)}`,
      details: { alertId: row.id, kind: row.kind, subject: row.subject },
    });
  }
}

/** Resolves the open alerts of `kind` whose condition has ended (`ended`, on the alert's row; undefined: all of them). */
async function resolveWhere(db: Db, kind: AlertKind, now: Date, ended: SQL | undefined): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(alerts)
      .set({ resolvedAt: now })
      .where(and(eq(alerts.kind, kind), isNull(alerts.resolvedAt), ended))
      .returning({ id: alerts.id, kind: alerts.kind, subject: alerts.subject, details: alerts.details });
    await audit(tx, rows, 'alert.resolve');
    return rows.length;
  });
}

/** Opens alerts with an `insert … select` whose select is the condition itself, so none opens for what just ended. */
async function openSelected(db: Db, select: SQL): Promise<number> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      insert into ${alerts} (kind, subject, details, opened_at)
      ${select}
      on conflict do nothing
      returning id, kind, subject, details`);
    // Both drivers (node-postgres and PGlite) answer with `rows`.
    const rows = (result as unknown as { rows: Row[] }).rows;
    await audit(tx, rows, 'alert.open');
    return rows.length;
  });
}

/** Opens the given alerts unless one of the same kind and subject is open (then nothing: the unique index). */
async function openValues(
  db: Db,
  now: Date,
  wanted: readonly { kind: AlertKind; subject: string; details: Record<string, unknown> }[],
): Promise<number> {
  if (wanted.length === 0) return 0;
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(alerts)
      .values(wanted.map((alert) => ({ ...alert, openedAt: now })))
      .onConflictDoNothing()
      .returning({ id: alerts.id, kind: alerts.kind, subject: alerts.subject, details: alerts.details });
    await audit(tx, rows, 'alert.open');
    return rows.length;
  });
}

const noOpenAlert = (kind: AlertKind, subject: SQL) =>
  sql`not exists (select 1 from ${alerts} a where a.kind = ${kind} and a.subject = ${subject} and a.resolved_at is null)`;

/** Paid orders waiting: for stock, or (a custom order) for an administrator to fulfil it. */
async function checkWaitingOrders(db: Db, now: Date): Promise<CheckOutcome> {
  const resolved = await resolveWhere(
    db,
    'order_waiting',
    now,
    sql`not exists (select 1 from ${orders} o where o.id::text = ${alerts.subject} and o.status = 'processing')`,
  );
  const opened = await openSelected(
    db,
    sql`select 'order_waiting', o.id::text,
          jsonb_build_object('orderId', o.id, 'productId', o.product_id, 'quantity', o.quantity,
            'customerEmail', u.email, 'since', coalesce(o.purchased_at, o.updated_at), 'custom', o.custom),
          ${now.toISOString()}::timestamptz
        from orders o join users u on u.id = o.user_id
        where o.status = 'processing' and ${noOpenAlert('order_waiting', sql`o.id::text`)}
        order by o.purchased_at, o.id
        limit ${OPEN_AT_ONCE}`,
  );
  return { opened, resolved };
}

/** E-mails that have failed for over an hour and are still being tried (alert e-mails left out: no alert loops). */
async function checkFailingEmails(db: Db, now: Date): Promise<CheckOutcome> {
  const resolved = await resolveWhere(
    db,
    'outbox_failing',
    now,
    sql`not exists (select 1 from ${emailOutbox} m
          where m.id::text = ${alerts.subject} and m.sent_at is null and m.attempts < ${MAX_ATTEMPTS})`,
  );
  const failingSince = new Date(now.getTime() - OUTBOX_FAILING_AFTER_MS);
  const opened = await openSelected(
    db,
    sql`select 'outbox_failing', m.id::text,
          jsonb_build_object('messageId', m.id, 'to', m.to_address, 'subject', m.subject, 'attempts', m.attempts,
            'lastError', left(m.last_error, 300), 'since', m.created_at),
          ${now.toISOString()}::timestamptz
        from email_outbox m
        where m.sent_at is null and m.attempts < ${MAX_ATTEMPTS} and m.last_error is not null
          and m.created_at <= ${failingSince.toISOString()}::timestamptz and m.dedupe_key not like 'alert%'
          and ${noOpenAlert('outbox_failing', sql`m.id::text`)}
        order by m.created_at, m.id
        limit ${OPEN_AT_ONCE}`,
  );
  return { opened, resolved };
}

/** Pools switched on for sale whose free stock is below their level (a level of 0 never alerts). */
async function checkLowStock(ctx: AlertCheckContext, now: Date): Promise<CheckOutcome> {
  const stock = await getStock(ctx.db);
  const flags = await ctx.db.select().from(featureFlags);
  const enabled = new Map(flags.map((flag) => [flag.featureName, flag.isEnabled]));
  const low: AlertDetails['low_stock'][] = [];
  for (const productId of PRODUCT_IDS) {
    const threshold = PRODUCTS[productId].unit === 'gb' ? ctx.settings.lowStockGb : ctx.settings.lowStockIps;
    if (enabled.get(productId) !== false && stock[productId] < threshold) {
      low.push({ productId, available: stock[productId], threshold });
    }
  }
  const lowIds: ProductId[] = low.map((entry) => entry.productId);
  const resolved = await resolveWhere(
    ctx.db,
    'low_stock',
    now,
    lowIds.length > 0 ? notInArray(alerts.subject, lowIds) : undefined,
  );
  const opened = await openValues(
    ctx.db,
    now,
    low.map((details) => ({ kind: 'low_stock' as const, subject: details.productId, details })),
  );
  // An alert already open keeps telling the figure of now (the console shows it), not the one it opened with.
  for (const details of low) {
    await ctx.db
      .update(alerts)
      .set({ details })
      .where(
        and(
          eq(alerts.kind, 'low_stock'),
          eq(alerts.subject, details.productId),
          isNull(alerts.resolvedAt),
          sql`(${alerts.details}->>'available')::bigint <> ${details.available}`,
        ),
      );
  }
  return { opened, resolved };
}

/**
 * The periodic job: stuck after JOB_STUCK_AFTER failures in a row, or JOB_STUCK_AFTER of its intervals without a
 * success, as recorded in job_state by whichever instance ran it. One query when nothing changes, so that every server
 * can run it on its own timer, also while the job itself keeps failing or no longer runs at all.
 */
export async function checkJobAlert(db: Db, now: Date = new Date()): Promise<CheckOutcome & { waiting: boolean }> {
  const [row] = await db
    .select({ state: jobState, openId: alerts.id, notifiedAt: alerts.notifiedAt })
    .from(jobState)
    .leftJoin(alerts, and(eq(alerts.kind, 'job_stuck'), eq(alerts.subject, jobState.name), isNull(alerts.resolvedAt)))
    .where(eq(jobState.name, PERIODIC_JOB));
  // No row: the job has never run against this database; nothing to say about it yet.
  if (!row) return { opened: 0, resolved: 0, waiting: false };
  const { state } = row;
  const quietSince = state.lastSuccessAt ?? state.createdAt;
  const stuck =
    state.failuresInARow >= JOB_STUCK_AFTER ||
    (state.intervalSeconds !== null &&
      now.getTime() - quietSince.getTime() > JOB_STUCK_AFTER * state.intervalSeconds * 1000);
  if (stuck && !row.openId) {
    const details: AlertDetails['job_stuck'] = {
      failuresInARow: state.failuresInARow,
      lastError: state.lastError,
      lastSuccessAt: state.lastSuccessAt?.toISOString() ?? null,
      firstRunAt: state.createdAt.toISOString(),
      intervalSeconds: state.intervalSeconds,
    };
    const opened = await openValues(db, now, [{ kind: 'job_stuck', subject: PERIODIC_JOB, details }]);
    return { opened, resolved: 0, waiting: opened > 0 };
  }
  if (!stuck && row.openId) {
    return { opened: 0, resolved: await resolveWhere(db, 'job_stuck', now, undefined), waiting: false };
  }
  return { opened: 0, resolved: 0, waiting: stuck && row.notifiedAt === null };
}

/** Every kind: opens what has started, resolves what has ended. Safe to run on any number of instances at once. */
export async function checkConditions(ctx: AlertCheckContext, now: Date = new Date()): Promise<CheckOutcome> {
  const outcomes = [
    await checkWaitingOrders(ctx.db, now),
    await checkLowStock(ctx, now),
    await checkFailingEmails(ctx.db, now),
    await checkJobAlert(ctx.db, now),
  ];
  return {
    opened: outcomes.reduce((sum, outcome) => sum + outcome.opened, 0),
    resolved: outcomes.reduce((sum, outcome) => sum + outcome.resolved, 0),
  };
}
