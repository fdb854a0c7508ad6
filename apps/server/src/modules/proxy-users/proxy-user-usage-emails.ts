import { formatGb, paths, proxiesTabPath } from '@storefront/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { actionEmail, type Branding } from '../../lib/branded-email.ts';
import type { Mail } from '../../lib/mailer.ts';
import { enqueueEmail } from '../notifications/outbox.ts';

/** Both drivers (node-postgres and PGlite) answer a raw statement with `rows`. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Proxy users handled in one run; the next run takes the rest. */
const BATCH = 500;

/**
 * What each live proxy user with a cap has used of it now, and the key of its allowance level and period: the same
 * reckoning as the gateway's reserve_residential_data (a monthly cap counts nothing in a period not yet written to).
 */
const CAPPED = sql`
  select pu.id, pu.user_id, pu.name, pu.allowance, pu.allowance_kb as limit_kb,
    case when pu.allowance = 'total' then pu.used_kb
      when pu.period_start = proxy_user_period_start(pu.reset_day, now()) then pu.period_used_kb
      else 0 end as used_kb,
    pu.allowance || ':' || pu.allowance_kb::text || case when pu.allowance = 'monthly'
      then ':' || proxy_user_period_start(pu.reset_day, now())::text else '' end as level_key,
    pu.usage_mailed_80_key as mailed_80, pu.usage_mailed_100_key as mailed_100
  from proxy_users pu
  where pu.deleted_at is null and pu.allowance <> 'none' and pu.allowance_kb > 0`;

export function proxyUserUsageEmail(
  brand: Branding,
  to: string,
  {
    name,
    level,
    usedKb,
    limitKb,
    monthly,
  }: { name: string; level: 80 | 100; usedKb: number; limitKb: number; monthly: boolean },
): Mail {
  const proxies = `${brand.appUrl}${proxiesTabPath('residential_proxies')}`;
  const period = monthly ? ' this month' : '';
  return actionEmail(brand, to, {
    subject:
      level === 100
        ? `Proxy user ${name} has used its allowance${period}`
        : `Proxy user ${name} has used 80 % of its allowance${period}`,
    heading: level === 100 ? `${name} has used its allowance` : `${name} has used 80 % of its allowance`,
    body:
      level === 100
        ? `Your proxy user ${name} has used all ${formatGb(limitKb)} of its allowance${period}, so the gateway no longer carries its requests${monthly ? ' until its allowance starts again' : ''}. Raise its cap on Proxies to let it go on.`
        : `Your proxy user ${name} has used ${formatGb(usedKb)} of its ${formatGb(limitKb)} allowance${period}. When it is used up the gateway stops carrying its requests; raise its cap on Proxies before then to keep its tools running.`,
    action: 'Open Proxies',
    url: proxies,
    footnote: `You receive this once for each allowance${monthly ? ' and month' : ''}. Turn these e-mails off on Settings: ${brand.appUrl}${paths.settings}`,
  });
}

/**
 * Writes the usage e-mails due for proxy users to the outbox, as queueUsageEmails does for accounts: to the customer
 * (who has not turned usage e-mails off), naming the proxy user, at 80 % and 100 % of its cap, once each per allowance
 * level and period (the key of both is kept on its row and names the outbox entry). One that went past both at once
 * gets the 100 % e-mail alone. One transaction per proxy user, its row locked.
 */
export async function queueProxyUserUsageEmails(ctx: {
  db: Db;
  brand: Branding;
  signal?: AbortSignal;
}): Promise<number> {
  const due = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`
    with capped as (${CAPPED})
    select c.id from capped c
    left join customer_preferences p on p.user_id = c.user_id
    where coalesce(p.usage_emails, true)
      and ((c.used_kb * 5 >= c.limit_kb * 4 and c.mailed_80 is distinct from c.level_key)
        or (c.used_kb >= c.limit_kb and c.mailed_100 is distinct from c.level_key))
    limit ${BATCH}`),
  );
  let queued = 0;
  for (const { id } of due) {
    if (ctx.signal?.aborted) break;
    const sent = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select id from proxy_users where id = ${id} for update`);
      const [row] = rowsOf<{
        email: string;
        name: string;
        allowance: string;
        limit_kb: string | number;
        used_kb: string | number;
        level_key: string;
        mailed_80: string | null;
        mailed_100: string | null;
        usage_emails: boolean | null;
      }>(
        await tx.execute(sql`
        with capped as (${CAPPED} and pu.id = ${id})
        select u.email, c.name, c.allowance, c.limit_kb, c.used_kb, c.level_key, c.mailed_80, c.mailed_100,
          p.usage_emails
        from capped c
        join users u on u.id = c.user_id
        left join customer_preferences p on p.user_id = c.user_id`),
      );
      if (!row || row.usage_emails === false) return false;
      const limitKb = Number(row.limit_kb);
      const usedKb = Number(row.used_kb);
      const level =
        usedKb >= limitKb && row.mailed_100 !== row.level_key
          ? 100
          : usedKb * 5 >= limitKb * 4 && row.mailed_80 !== row.level_key
            ? 80
            : undefined;
      if (level === undefined || limitKb <= 0) return false;
      const mail = proxyUserUsageEmail(ctx.brand, row.email, {
        name: row.name,
        level,
        usedKb,
        limitKb,
        monthly: row.allowance === 'monthly',
      });
      await enqueueEmail(tx, `proxy-user-usage:${level}:${id}:${row.level_key}`, mail);
      await tx.execute(
        level === 100
          ? sql`update proxy_users set usage_mailed_80_key = ${row.level_key}, usage_mailed_100_key = ${row.level_key} where id = ${id}`
          : sql`update proxy_users set usage_mailed_80_key = ${row.level_key} where id = ${id}`,
      );
      return true;
    });
    if (sent) queued += 1;
  }
  return queued;
}
