import { type ProductId, REPLACEMENT_SUBNETS_PAGE_SIZE, type ReplacementStats } from '@storefront/contract';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ipReplacementCounts, ipReplacementSubnets, ipReplacements } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/** A subnets position: the last row's flagging customers, replacements and subnet, as `<customers>_<total>_<subnet>`. */
function positionOf(after: string | undefined) {
  if (after === undefined) return undefined;
  const match = /^(\d{1,9})_(\d{1,9})_([\d./]{9,18})$/.exec(after);
  if (!match) throw new AppError('BAD_REQUEST', 'after is the position a previous page gave as next.');
  return { customers: Number(match[1]), total: Number(match[2]), subnet: match[3] ?? '' };
}

const byReason = (row: { blocked: number; slow: number; noConnect: number; other: number }) => ({
  blocked: row.blocked,
  slow: row.slow,
  no_connect: row.noConnect,
  other: row.other,
});

/**
 * GET /api/admin/ips/{pk1,isp}/replacements: the pool's replacements by reason (kept counts), how many wait for stock,
 * and a page of the replaced IPs' subnets since their last swap, the subnet most customers flagged as blocked first.
 */
export async function replacementStats({
  db,
  productId,
  after,
}: {
  db: Db;
  productId: ProductId;
  after?: string;
}): Promise<ReplacementStats> {
  const position = positionOf(after);
  const [[counts], [waiting], rows] = await Promise.all([
    db.select().from(ipReplacementCounts).where(eq(ipReplacementCounts.productId, productId)),
    db
      .select({ count: count() })
      .from(ipReplacements)
      .where(and(eq(ipReplacements.productId, productId), eq(ipReplacements.status, 'waiting'))),
    db
      .select()
      .from(ipReplacementSubnets)
      .where(
        and(
          eq(ipReplacementSubnets.productId, productId),
          position
            ? sql`(-${ipReplacementSubnets.blockedCustomers}, -${ipReplacementSubnets.total}, ${ipReplacementSubnets.subnet}) > (${-position.customers}, ${-position.total}, ${position.subnet})`
            : undefined,
        ),
      )
      .orderBy(
        desc(ipReplacementSubnets.blockedCustomers),
        desc(ipReplacementSubnets.total),
        asc(ipReplacementSubnets.subnet),
      )
      .limit(REPLACEMENT_SUBNETS_PAGE_SIZE + 1),
  ]);
  const page = rows.slice(0, REPLACEMENT_SUBNETS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    total: counts?.total ?? 0,
    byReason: byReason(counts ?? { blocked: 0, slow: 0, noConnect: 0, other: 0 }),
    waiting: Number(waiting?.count ?? 0),
    subnets: page.map((row) => ({
      subnet: row.subnet,
      total: row.total,
      byReason: byReason(row),
      blockedCustomers: row.blockedCustomers,
      lastAt: row.lastAt.toISOString(),
    })),
    next:
      rows.length > REPLACEMENT_SUBNETS_PAGE_SIZE && last
        ? `${last.blockedCustomers}_${last.total}_${last.subnet}`
        : null,
  };
}
