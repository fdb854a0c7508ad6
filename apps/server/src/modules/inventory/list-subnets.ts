import type { ProductId, SubnetIp, SubnetsData } from '@storefront/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proxyIps } from '../../db/schema.ts';

/**
 * GET /api/admin/ips/{pk1,isp}/subnets (spec section 3 'PK1 subnets data'): per /24 subnet its counts and, unless
 * `withIps` is false, its IPs. `subnet` narrows the answer to one subnet (the admin page loads a card's IPs when it opens).
 */
export async function listSubnets({
  db,
  productId,
  withIps,
  subnet,
}: {
  db: Db;
  productId: ProductId;
  withIps: boolean;
  subnet?: string;
}): Promise<SubnetsData> {
  const where = and(eq(proxyIps.productId, productId), subnet === undefined ? undefined : eq(proxyIps.subnet, subnet));
  const [summaries, ips] = await Promise.all([
    db
      .select({
        subnet: proxyIps.subnet,
        totalIps: sql<number>`count(*)::int`,
        assignedIps: sql<number>`count(${proxyIps.assignedOrderId})::int`,
        burntIps: sql<number>`(count(*) filter (where ${proxyIps.needRotated}))::int`,
      })
      .from(proxyIps)
      .where(where)
      .groupBy(proxyIps.subnet)
      .orderBy(sql`${proxyIps.subnet}::cidr`),
    withIps
      ? db
          .select({
            subnet: proxyIps.subnet,
            ip: proxyIps.ip,
            endpoint: proxyIps.endpoint,
            assignedOrderId: proxyIps.assignedOrderId,
            needRotated: proxyIps.needRotated,
          })
          .from(proxyIps)
          .where(where)
          .orderBy(sql`${proxyIps.ip}::inet`, asc(proxyIps.port))
      : Promise.resolve([]),
  ]);
  const bySubnet = new Map<string, SubnetIp[]>();
  for (const row of ips) {
    let list = bySubnet.get(row.subnet);
    if (!list) {
      list = [];
      bySubnet.set(row.subnet, list);
    }
    list.push({
      ip: row.ip,
      endpoint: row.endpoint,
      isAssigned: row.assignedOrderId !== null,
      assignedToEntityId: row.assignedOrderId,
      needRotated: row.needRotated,
    });
  }
  const subnets = summaries.map((summary) => {
    const totalIps = Number(summary.totalIps);
    const assignedIps = Number(summary.assignedIps);
    return {
      subnet: summary.subnet,
      totalIps,
      assignedIps,
      unassignedIps: totalIps - assignedIps,
      burntIps: Number(summary.burntIps),
      ips: bySubnet.get(summary.subnet) ?? [],
    };
  });
  return {
    totalSubnets: subnets.length,
    totalIps: subnets.reduce((sum, entry) => sum + entry.totalIps, 0),
    subnets,
  };
}
