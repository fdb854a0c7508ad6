import { Readable } from 'node:stream';
import { BURNT_IPS_PAGE_SIZE, type IpStock, type ProductId } from '@storefront/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proxyIpCounts, proxyIps } from '../../db/schema.ts';

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/** Burnt IPs in address order after a position (IP:PORT), read through the pool's index of burnt IPs. */
function burntPage(db: Db, productId: ProductId, after: string | undefined, limit: number) {
  const position = after?.split(':');
  return db
    .select({ ip: proxyIps.ip, port: proxyIps.port })
    .from(proxyIps)
    .where(
      and(
        eq(proxyIps.productId, productId),
        eq(proxyIps.needRotated, true),
        position
          ? sql`(${proxyIps.ip}::inet, ${proxyIps.port}) > (${position[0]}::inet, ${Number(position[1])})`
          : undefined,
      ),
    )
    .orderBy(sql`${proxyIps.ip}::inet`, asc(proxyIps.port))
    .limit(limit);
}

/**
 * GET /api/admin/stocks/{pk1,isp}: the pool's kept counts (never counted here) and a page of its burnt IPs (spec
 * section 3 'PK1 stock').
 */
export async function getIpStock({
  db,
  productId,
  after,
}: {
  db: Db;
  productId: ProductId;
  after?: string;
}): Promise<IpStock> {
  const [[counts], burnt] = await Promise.all([
    db.select().from(proxyIpCounts).where(eq(proxyIpCounts.productId, productId)),
    burntPage(db, productId, after, BURNT_IPS_PAGE_SIZE + 1),
  ]);
  const page = burnt.slice(0, BURNT_IPS_PAGE_SIZE);
  const last = page.at(-1);
  const totalIps = counts?.total ?? 0;
  const availableIps = counts?.available ?? 0;
  return {
    totalIps,
    soldIps: counts?.assigned ?? 0,
    availableIps,
    burntIps: counts?.burnt ?? 0,
    usagePercentage: percent(totalIps - availableIps, totalIps),
    recycles: page.map((row) => ({ ip: row.ip })),
    recyclesNext: burnt.length > BURNT_IPS_PAGE_SIZE && last ? `${last.ip}:${last.port}` : null,
  };
}

/** GET /api/admin/stocks/{pk1,isp}/burnt.txt: every burnt IP, a line each, read a thousand at a time as it is sent. */
export function burntIpsText({ db, productId }: { db: Db; productId: ProductId }): Readable {
  async function* lines() {
    let after: string | undefined;
    for (;;) {
      const rows = await burntPage(db, productId, after, 1000);
      const last = rows.at(-1);
      if (!last) return;
      yield rows.map((row) => `${row.ip}\n`).join('');
      after = `${last.ip}:${last.port}`;
    }
  }
  return Readable.from(lines());
}
