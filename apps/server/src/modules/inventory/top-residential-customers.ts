import type { TopResidentialCustomers } from '@storefront/contract';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { residentialUsageMonthly, users } from '../../db/schema.ts';

const TOP = 10;

/**
 * GET /api/admin/stocks/residential/top-customers: who used the most residential data this calendar month (UTC), read
 * from the monthly totals the meter's writes keep (residential_usage_monthly), by their index.
 */
export async function listTopResidentialCustomers({
  db,
  now = new Date(),
}: {
  db: Db;
  now?: Date;
}): Promise<TopResidentialCustomers> {
  const month = now.toISOString().slice(0, 7);
  const rows = await db
    .select({ userId: residentialUsageMonthly.userId, email: users.email, usedKb: residentialUsageMonthly.usedKb })
    .from(residentialUsageMonthly)
    .innerJoin(users, eq(users.id, residentialUsageMonthly.userId))
    .where(and(eq(residentialUsageMonthly.month, `${month}-01`), gt(residentialUsageMonthly.usedKb, 0)))
    .orderBy(desc(residentialUsageMonthly.usedKb), residentialUsageMonthly.userId)
    .limit(TOP);
  return {
    month,
    customers: rows.map((row) => ({ userId: row.userId, email: row.email, usedInKb: Number(row.usedKb) })),
  };
}
