import { formatGb, paths } from '@storefront/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { actionEmail, type Branding } from '../../lib/branded-email.ts';
import type { Mail } from '../../lib/mailer.ts';
import { enqueueEmail } from '../notifications/outbox.ts';

/** Both drivers (node-postgres and PGlite) answer a raw statement with `rows`. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Accounts handled in one run; the next run takes the rest. */
const BATCH = 500;

export function usageEmail(brand: Branding, to: string, level: 80 | 100, usedKb: number, totalKb: number): Mail {
  const settings = `${brand.appUrl}${paths.settings}`;
  return actionEmail(brand, to, {
    subject: level === 100 ? 'Your residential data is used up' : 'You have used 80 % of your residential data',
    heading: level === 100 ? 'Your residential data is used up' : '80 % of your residential data is used',
    body:
      level === 100
        ? `You have used all ${formatGb(totalKb)} of your residential data, so the gateway no longer carries your requests. Buy more to go on; it works at once, with the same proxy lines.`
        : `You have used ${formatGb(usedKb)} of your ${formatGb(totalKb)} of residential data. When it is used up the gateway stops carrying your requests; buy more before then to keep your tools running.`,
    action: 'Buy more data',
    url: `${brand.appUrl}${paths.purchase}`,
    footnote: `You receive this once for each purchase. Turn these e-mails off on Settings: ${settings}`,
  });
}

/**
 * Writes the usage e-mails due to the outbox: for each residential account of a customer who has not
 * turned them off that reached 80 % or 100 % of its data since the last e-mail of that level at its current total.
 * Once each per purchase level: the total at which a level was e-mailed is kept on the account (and the outbox key
 * names it), so a purchase that raises the total makes both due again when they are reached again. An account that went
 * past both at once gets the 100 % e-mail alone. One transaction per account, its row locked, as the job's other steps.
 */
export async function queueUsageEmails(ctx: { db: Db; brand: Branding; signal?: AbortSignal }): Promise<number> {
  const due = rowsOf<{ user_id: string }>(
    await ctx.db.execute(sql`
    select ra.user_id from residential_accounts ra
    left join customer_preferences p on p.user_id = ra.user_id
    where ra.total_kb > 0 and coalesce(p.usage_emails, true)
      and ((ra.used_kb * 5 >= ra.total_kb * 4 and ra.usage_mailed_80_at_kb is distinct from ra.total_kb)
        or (ra.used_kb >= ra.total_kb and ra.usage_mailed_100_at_kb is distinct from ra.total_kb))
    limit ${BATCH}`),
  );
  let queued = 0;
  for (const { user_id: userId } of due) {
    if (ctx.signal?.aborted) break;
    const sent = await ctx.db.transaction(async (tx) => {
      const [row] = rowsOf<{
        email: string;
        total_kb: string | number;
        used_kb: string | number;
        mailed_80: string | number | null;
        mailed_100: string | number | null;
        usage_emails: boolean | null;
      }>(
        await tx.execute(sql`
        select u.email, ra.total_kb, ra.used_kb, ra.usage_mailed_80_at_kb as mailed_80,
          ra.usage_mailed_100_at_kb as mailed_100, p.usage_emails
        from residential_accounts ra
        join users u on u.id = ra.user_id
        left join customer_preferences p on p.user_id = ra.user_id
        where ra.user_id = ${userId}
        for update of ra`),
      );
      if (!row || row.usage_emails === false) return false;
      const total = Number(row.total_kb);
      const used = Number(row.used_kb);
      const level =
        used >= total && Number(row.mailed_100 ?? -1) !== total
          ? 100
          : used * 5 >= total * 4 && Number(row.mailed_80 ?? -1) !== total
            ? 80
            : undefined;
      if (level === undefined || total <= 0) return false;
      await enqueueEmail(tx, `usage:${level}:${userId}:${total}`, usageEmail(ctx.brand, row.email, level, used, total));
      await tx.execute(
        level === 100
          ? sql`update residential_accounts set usage_mailed_80_at_kb = ${total}, usage_mailed_100_at_kb = ${total} where user_id = ${userId}`
          : sql`update residential_accounts set usage_mailed_80_at_kb = ${total} where user_id = ${userId}`,
      );
      return true;
    });
    if (sent) queued += 1;
  }
  return queued;
}
