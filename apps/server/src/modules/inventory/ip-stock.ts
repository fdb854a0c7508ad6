import type { IpStock, ProductId } from '@storefront/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proxyIps } from '../../db/schema.ts';

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/** GET /api/admin/stocks/{pk1,isp}: the pool's counts and its burnt IPs (spec section 3 'PK1 stock'). */
export async function getIpStock({ db, productId }: { db: Db; productId: ProductId }): Promise<IpStock> {
  const [[counts], burnt] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)::int`,
        sold: sql<number>`count(${proxyIps.assignedOrderId})::int`,
        burnt: sql<number>`(count(*) filter (where ${proxyIps.needRotated}))::int`,
      })
      .from(proxyIps)
      .where(eq(proxyIps.productId, productId)),
    db
      .select({ ip: proxyIps.ip })
      .from(proxyIps)
      .where(and(eq(proxyIps.productId, productId), eq(proxyIps.needRotated, true)))
      .orderBy(sql`${proxyIps.ip}::inet`, asc(proxyIps.port)),
  ]);
  const totalIps = Number(counts?.total ?? 0);
  const soldIps = Number(counts?.sold ?? 0);
  const burntIps = Number(counts?.burnt ?? 0);
  const availableIps = totalIps - soldIps - burntIps;
  return {
    totalIps,
    soldIps,
    availableIps,
    burntIps,
    usagePercentage: percent(totalIps - availableIps, totalIps),
    recycles: burnt,
  };
}
