// The zod schemas of alerts.ts: what the server validates and serialises, and the API reference; the web app takes
// their types only, so its pages load no zod (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
import { ADMIN_TAB_VALUES } from '../admin.ts';
import { ALERT_KINDS } from '../alerts.ts';

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

/** GET /api/admin/alerts: the open alerts, oldest first within each kind, and how many are open. */
export const adminAlertsSchema = z.object({
  alerts: z.array(adminAlertSchema),
  total: z.number().int(),
  /** Open alerts of each kind (the list may stop before them all). */
  counts: z.record(z.enum(ALERT_KINDS), z.number().int()),
});
export type AdminAlerts = z.infer<typeof adminAlertsSchema>;
