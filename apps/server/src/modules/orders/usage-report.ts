import { USAGE_DOMAINS_SHOWN, type UsageQuery, type UsageRange, type UsageReport } from '@storefront/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

const DAY_MS = 86_400_000;

/** Today's date (YYYY-MM-DD) in the zone. */
const todayIn = (timeZone: string, now: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
const addDays = (day: string, days: number) => new Date(Date.parse(day) + days * DAY_MS).toISOString().slice(0, 10);

/** The first and last day of a range, in the customer's zone. */
function daysOf(range: UsageRange, from: string | undefined, to: string | undefined, today: string) {
  switch (range) {
    case 'today':
      return { from: today, to: today };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'custom':
      return { from: from ?? today, to: to ?? today };
  }
}

type Figures = { bytes: number; connections: number };
const figuresOf = (row: Record<string, unknown>): Figures => ({
  bytes: Number(row.bytes ?? 0),
  connections: Number(row.connections ?? 0),
});

/**
 * A customer's residential usage statistics for a range of days in their zone: what the gateway recorded by the hour
 * (totals, the series, by proxy user and by country) and by the day with domains (the largest domains; those days are
 * UTC days, so at a range's edges they follow UTC midnight rather than the customer's). Read in one transaction, so the
 * figures are of one moment. A customer without residential data has nothing used and nothing left.
 */
export async function usageReport(db: Db, userId: string, query: UsageQuery, now = new Date()): Promise<UsageReport> {
  const timeZone = query.timeZone ?? 'UTC';
  const { from, to } = daysOf(query.range ?? '7d', query.from, query.to, todayIn(timeZone, now));
  const by = query.by ?? (from === to ? 'hour' : 'day');
  const start = sql`(${from}::date)::timestamp at time zone ${timeZone}`;
  const end = sql`(${to}::date + 1)::timestamp at time zone ${timeZone}`;
  const user = query.user === undefined ? sql`true` : sql`h.proxy_user_id = ${query.user === 'main' ? '' : query.user}`;
  const country = query.country === undefined ? sql`true` : sql`h.country = ${query.country}`;
  const hourly = (columns: SQL, groupBy: SQL) =>
    sql`select ${columns}, coalesce(sum(h.upload_bytes + h.download_bytes), 0)::bigint as bytes,
      coalesce(sum(h.connections), 0)::bigint as connections
      from residential_usage_hourly h
      where h.user_id = ${userId} and h.hour >= ${start} and h.hour < ${end} and ${user} and ${country}
      group by ${groupBy} order by bytes desc`;
  const bucket =
    by === 'hour'
      ? sql`date_trunc('hour', h.hour at time zone ${timeZone})`
      : sql`date_trunc('day', h.hour at time zone ${timeZone})`;

  return db.transaction(async (tx) => {
    // Both drivers (node-postgres and PGlite) answer with `rows`.
    const rows = async (statement: SQL) =>
      ((await tx.execute(statement)) as unknown as { rows: Record<string, unknown>[] }).rows;
    const [account] = await rows(sql`select total_kb - used_kb as left_kb from residential_accounts
      where user_id = ${userId}`);
    const [total] = await rows(hourly(sql`1 as one`, sql`1`));
    const series = await rows(sql`select to_char(b.at at time zone ${timeZone} at time zone 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS"Z"') as start, coalesce(s.bytes, 0) as bytes, coalesce(s.connections, 0) as connections
      from generate_series(
        date_trunc(${by}, ${start} at time zone ${timeZone}),
        least(date_trunc(${by}, ${end} at time zone ${timeZone} - interval '1 microsecond'),
          date_trunc(${by}, now() at time zone ${timeZone})),
        ${by === 'hour' ? sql`interval '1 hour'` : sql`interval '1 day'`}
      ) as b(at)
      left join (${hourly(sql`${bucket} as at`, sql`1`)}) s on s.at = b.at
      order by b.at`);
    const users = await rows(sql`select u.proxy_user_id, p.name, p.deleted_at is not null as deleted, u.bytes,
        u.connections
      from (${hourly(sql`h.proxy_user_id`, sql`h.proxy_user_id`)}) u
      left join proxy_users p on p.id = u.proxy_user_id and p.user_id = ${userId}
      order by u.bytes desc, p.name`);
    const countries = await rows(hourly(sql`h.country`, sql`h.country`));
    const domainUser =
      query.user === undefined ? sql`true` : sql`d.proxy_user_id = ${query.user === 'main' ? '' : query.user}`;
    const domainCountry = query.country === undefined ? sql`true` : sql`d.country = ${query.country}`;
    const domains = await rows(sql`select d.domain, sum(d.upload_bytes + d.download_bytes)::bigint as bytes,
        sum(d.connections)::bigint as connections
      from residential_usage_domains d
      where d.user_id = ${userId} and d.day >= (${start} at time zone 'UTC')::date
        and d.day <= ((${end} - interval '1 microsecond') at time zone 'UTC')::date and ${domainUser} and ${domainCountry}
      group by d.domain order by bytes desc, d.domain`);

    const days = Math.max(
      1,
      Math.min(
        Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1,
        Math.round((Date.parse(todayIn(timeZone, now)) - Date.parse(from)) / DAY_MS) + 1,
      ),
    );
    const summary = total ? figuresOf(total) : { bytes: 0, connections: 0 };
    const shown = domains.slice(0, USAGE_DOMAINS_SHOWN);
    const others = domains.slice(USAGE_DOMAINS_SHOWN).map(figuresOf);
    return {
      from,
      to,
      timeZone,
      by,
      summary: {
        ...summary,
        leftKb: Math.max(0, Number(account?.left_kb ?? 0)),
        bytesPerDay: Math.round(summary.bytes / days),
      },
      series: series.map((row) => ({ start: String(row.start), ...figuresOf(row) })),
      users: users.map((row) => ({
        proxyUserId: row.proxy_user_id ? String(row.proxy_user_id) : null,
        name: row.proxy_user_id ? String(row.name ?? 'deleted user') : 'main',
        deleted: row.deleted === true,
        ...figuresOf(row),
      })),
      countries: countries.map((row) => ({ country: String(row.country), ...figuresOf(row) })),
      domains: shown.map((row) => ({ domain: String(row.domain), ...figuresOf(row) })),
      otherDomains: {
        count: others.length,
        bytes: others.reduce((sum, row) => sum + row.bytes, 0),
        connections: others.reduce((sum, row) => sum + row.connections, 0),
      },
    };
  });
}
