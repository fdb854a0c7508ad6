import type { IpStock, ProductId } from '@storefront/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proxyIpCounts, proxyIps } from '../../db/schema.ts';

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/** GET /api/admin/stocks/{pk1,isp}: the pool's kept counts (never counted here) and its burnt IPs (spec section 3 'PK1 stock'). */
export async function getIpStock({ db, productId }: { db: Db; productId: ProductId }): Promise<IpStock> {
  const [[counts], burnt] = await Promise.all([
    db.select().from(proxyIpCounts).where(eq(proxyIpCounts.productId, productId)),
    db
      .select({ ip: proxyIps.ip })
      .from(proxyIps)
      .where(and(eq(proxyIps.productId, productId), eq(proxyIps.needRotated, true)))
      .orderBy(sql`${proxyIps.ip}::inet`, asc(proxyIps.port)),
  ]);
  const totalIps = counts?.total ?? 0;
  const soldIps = counts?.assigned ?? 0;
  const burntIps = counts?.burnt ?? 0;
  const availableIps = counts?.available ?? 0;
  return {
    totalIps,
    soldIps,
    availableIps,
    burntIps,
    usagePercentage: percent(totalIps - availableIps, totalIps),
    recycles: burnt,
  };
}
