import { ALERT_KIND_TITLES, type AlertKind, paths } from '@storefront/contract';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { AlertsConfig } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { alertMailings, alerts, users } from '../../db/schema.ts';
import { actionEmail, type Branding } from '../../lib/branded-email.ts';
import type { Mail } from '../../lib/mailer.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { atTime, describeAlert, KIND_ADVICE } from './describe.ts';

/** Oldest first; alerts opened by one check in the order of their own times (an order's payment). */
export const ALERT_ORDER = [asc(alerts.openedAt), asc(sql`${alerts.details}->>'since'`), asc(alerts.id)] as const;

/** At most one e-mail an hour per kind: the first at once, later ones gathered into the next hour's digest. */
export const DIGEST_EVERY_MS = 60 * 60_000;
/** A digest lists this many alerts; the console lists them all. */
const DIGEST_ITEMS_MAX = 20;

export interface NotifyContext {
  db: Db;
  brand: Branding;
  settings: AlertsConfig;
}

type AlertRow = typeof alerts.$inferSelect;

/** Who is told: administrators with a confirmed address who are not banned, and ALERT_EMAILS; each address once. */
export async function alertRecipients(db: Db | Tx, settings: AlertsConfig, now: Date): Promise<string[]> {
  const admins = await db
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.role, 'admin'),
        eq(users.emailVerified, true),
        or(
          sql`${users.banned} is not true`,
          sql`${users.banExpires} is not null and ${users.banExpires} <= ${now.toISOString()}::timestamptz`,
        ),
      ),
    );
  return [...new Set([...admins.map((admin) => admin.email.toLowerCase()), ...settings.emails])].sort();
}

const FOOTNOTE =
  'You receive this as an administrator of the shop or as an address in ALERT_EMAILS. At most one e-mail an hour for ' +
  'each kind of alert; the admin console shows every open alert until it resolves by itself.';

/** One alert's e-mail, or (several) a digest of them, in the shop's branded look. */
export function alertEmail(
  brand: Branding,
  to: string,
  kind: AlertKind,
  pending: readonly Pick<AlertRow, 'kind' | 'details' | 'openedAt'>[],
  previousAt: Date | null,
): Mail {
  const consoleUrl = `${brand.appUrl}${paths.admin}`;
  const [only] = pending;
  if (pending.length === 1 && only) {
    const text = describeAlert(kind, only.details);
    return actionEmail(brand, to, {
      subject: `Alert: ${ALERT_KIND_TITLES[kind]}: ${text.summary}`.slice(0, 200),
      heading: ALERT_KIND_TITLES[kind],
      body: `${text.summary} ${text.advice}`,
      action: 'Open the admin console',
      url: text.tab && text.tab !== 'inventory' ? `${consoleUrl}?tab=${text.tab}` : consoleUrl,
      footnote: FOOTNOTE,
    });
  }
  const items = pending.slice(0, DIGEST_ITEMS_MAX).map((alert) => describeAlert(kind, alert.details).summary);
  const more = pending.length - items.length;
  if (more > 0) items.push(`… and ${more} more, listed in the admin console.`);
  return actionEmail(brand, to, {
    subject: `Alerts: ${ALERT_KIND_TITLES[kind]} (${pending.length} new)`,
    heading: `${ALERT_KIND_TITLES[kind]}: ${pending.length} new alerts`,
    body:
      `${previousAt ? `Since the last e-mail of this kind (${atTime(previousAt.toISOString())}), these` : 'These'} ` +
      `alerts opened and are still open. ${KIND_ADVICE[kind]}`,
    items,
    action: 'Open the admin console',
    url: consoleUrl,
    footnote: FOOTNOTE,
  });
}

/**
 * E-mails the open alerts of `kind` that no e-mail has told yet, when the kind's hour allows: its row in alert_mailings is
 * locked (FOR UPDATE SKIP LOCKED: another instance deciding the same kind makes this one step aside), the hour since
 * its last e-mail checked, and the e-mails written to the outbox with the alerts marked told, in one transaction. The
 * outbox keys make each e-mail unique per alert (or per digest's hour) and recipient. Answers the e-mails written.
 */
async function notifyKind(ctx: NotifyContext, kind: AlertKind, now: Date): Promise<number> {
  await ctx.db.insert(alertMailings).values({ kind }).onConflictDoNothing();
  return ctx.db.transaction(async (tx) => {
    const [mailing] = await tx
      .select()
      .from(alertMailings)
      .where(eq(alertMailings.kind, kind))
      .for('update', { skipLocked: true });
    if (!mailing) return 0;
    const previousAt = mailing.lastSentAt;
    if (previousAt && now.getTime() - previousAt.getTime() < DIGEST_EVERY_MS) return 0;
    const pending = await tx
      .select()
      .from(alerts)
      .where(and(eq(alerts.kind, kind), isNull(alerts.resolvedAt), isNull(alerts.notifiedAt)))
      .orderBy(...ALERT_ORDER);
    const [only] = pending;
    if (!only) return 0;
    const recipients = await alertRecipients(tx, ctx.settings, now);
    const key =
      pending.length === 1
        ? `alert:${kind}:${only.id}`
        : `alert-digest:${kind}:${previousAt?.toISOString() ?? 'first'}`;
    for (const to of recipients) {
      await enqueueEmail(tx, `${key}:${to}`, alertEmail(ctx.brand, to, kind, pending, previousAt));
    }
    await tx
      .update(alerts)
      .set({ notifiedAt: now })
      .where(
        inArray(
          alerts.id,
          pending.map((alert) => alert.id),
        ),
      );
    // Nobody to tell is not a reason to tell them later in a heap: the hour starts all the same.
    await tx.update(alertMailings).set({ lastSentAt: now }).where(eq(alertMailings.kind, kind));
    return recipients.length;
  });
}

/** E-mails every kind with open alerts not yet told (each as its hour allows). Answers the e-mails written. */
export async function notifyAlerts(ctx: NotifyContext, now: Date = new Date(), only?: AlertKind): Promise<number> {
  const kinds = only
    ? [{ kind: only }]
    : await ctx.db
        .selectDistinct({ kind: alerts.kind })
        .from(alerts)
        .where(and(isNull(alerts.resolvedAt), isNull(alerts.notifiedAt)));
  let written = 0;
  for (const { kind } of kinds) written += await notifyKind(ctx, kind, now);
  return written;
}
