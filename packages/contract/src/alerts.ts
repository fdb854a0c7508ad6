import { z } from 'zod';
import { ADMIN_TAB_VALUES } from './admin.ts';

/**
 * What the shop tells its administrators about (issue 36 item 5): a paid order waiting for stock (or for its custom
 * fulfilment), a pool below its alert level, the periodic job stuck, an e-mail failing for over an hour.
 */
export const ALERT_KINDS = ['order_waiting', 'low_stock', 'job_stuck', 'outbox_failing'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** A kind's heading, in the admin console and in the e-mails' subjects. */
export const ALERT_KIND_TITLES: Record<AlertKind, string> = {
  order_waiting: 'Paid orders waiting',
  low_stock: 'Low stock',
  job_stuck: 'Periodic job stuck',
  outbox_failing: 'E-mails not sent',
};

const adminTabSchema = z.enum(ADMIN_TAB_VALUES);

/** One open alert: what it is, in one sentence with its figures, and where in the console it is acted on. */
export const adminAlertSchema = z.object({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  summary: z.string(),
  openedAt: z.string(),
  /** The admin tab where a person acts on it (uploads IPs, fulfils a custom order), or null. */
  tab: adminTabSchema.nullable(),
});
export type AdminAlert = z.infer<typeof adminAlertSchema>;

/** At most this many open alerts of each kind are listed (the oldest); `counts` and `total` count them all. */
export const ALERTS_LISTED_MAX = 50;

/** GET /api/admin/alerts: the open alerts, oldest first within each kind, and how many are open. */
export const adminAlertsSchema = z.object({
  alerts: z.array(adminAlertSchema),
  total: z.number().int(),
  /** Open alerts of each kind (the list may stop before them all). */
  counts: z.record(z.enum(ALERT_KINDS), z.number().int()),
});
export type AdminAlerts = z.infer<typeof adminAlertsSchema>;
