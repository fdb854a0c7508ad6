import type { TopResidentialCustomers } from '@storefront/contract';
import { desc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { residentialUsageDaily, users } from '../../db/schema.ts';

const TOP = 10;

/**
 * GET /api/admin/stocks/residential/top-customers: who used the most residential data this calendar month (UTC), from
 * the metered days (read by their day index: a month of rows, not the 13 months kept).
 */
export async function listTopResidentialCustomers({
  db,
  now = new Date(),
}: {
  db: Db;
  now?: Date;
}): Promise<TopResidentialCustomers> {
  const month = now.toISOString().slice(0, 7);
  const used = sql<string>`sum(${residentialUsageDaily.usedKb})`;
  const rows = await db
    .select({ userId: residentialUsageDaily.userId, email: users.email, usedKb: used })
    .from(residentialUsageDaily)
    .innerJoin(users, eq(users.id, residentialUsageDaily.userId))
    .where(gte(residentialUsageDaily.day, `${month}-01`))
    .groupBy(residentialUsageDaily.userId, users.email)
    .orderBy(desc(used), residentialUsageDaily.userId)
    .limit(TOP);
  return {
    month,
    customers: rows
      .map((row) => ({ userId: row.userId, email: row.email, usedInKb: Number(row.usedKb) }))
      .filter((row) => row.usedInKb > 0),
  };
}
