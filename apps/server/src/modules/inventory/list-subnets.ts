import {
  adminMessages,
  type ProductId,
  SUBNETS_PAGE_SIZE,
  type SubnetFilters,
  type SubnetState,
  type SubnetsData,
} from '@storefront/contract';
import { and, asc, eq, gt, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, proxyIpCounts, proxyIps, proxySubnetCounts, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The orders a customer filter means: one order by its id, or every order of the customer with that e-mail. */
function customerOrders(db: Db, customer: string) {
  return customer.includes('@')
    ? db
        .select({ id: orders.id })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(eq(users.email, customer))
    : db.select({ id: orders.id }).from(orders).where(eq(orders.id, customer));
}

/** A state as a condition on one IP's row. */
function ipInState(state: SubnetState): SQL | undefined {
  if (state === 'burnt') return eq(proxyIps.needRotated, true);
  if (state === 'assigned') return isNotNull(proxyIps.assignedOrderId);
  return and(isNull(proxyIps.assignedOrderId), eq(proxyIps.needRotated, false));
}

/** A state as a condition on a subnet's kept counts: some of its IPs are in it. */
function subnetInState(state: SubnetState): SQL {
  if (state === 'burnt') return gt(proxySubnetCounts.burnt, 0);
  if (state === 'assigned') return gt(proxySubnetCounts.assigned, 0);
  return gt(proxySubnetCounts.available, 0);
}

function subnetsWhere(db: Db, productId: ProductId, filters: SubnetFilters, after?: string) {
  const { search, state, customer } = filters;
  let searched: SQL | undefined;
  if (search && IPV4.test(search)) searched = sql`${proxySubnetCounts.subnet}::cidr >>= ${search}::inet`;
  else if (search) searched = sql`${proxySubnetCounts.subnet} like ${`${search}%`}`;
  return and(
    eq(proxySubnetCounts.productId, productId),
    gt(proxySubnetCounts.total, 0),
    after === undefined ? undefined : sql`${proxySubnetCounts.subnet}::cidr > ${after}::cidr`,
    searched,
    state === undefined ? undefined : subnetInState(state),
    customer
      ? inArray(
          proxySubnetCounts.subnet,
          db
            .selectDistinct({ subnet: proxyIps.subnet })
            .from(proxyIps)
            .where(
              and(eq(proxyIps.productId, productId), inArray(proxyIps.assignedOrderId, customerOrders(db, customer))),
            ),
        )
      : undefined,
  );
}

const counted = (row: typeof proxySubnetCounts.$inferSelect) => ({
  subnet: row.subnet,
  totalIps: row.total,
  assignedIps: row.assigned,
  unassignedIps: row.total - row.assigned,
  burntIps: row.burnt,
});

/**
 * GET /api/admin/ips/{pk1,isp}/subnets (spec section 3 'PK1 subnets data'): a page of the pool's subnets from their kept
 * counts, in network order after `after`, with the pool's totals. The IPs come only for one subnet (`subnet`).
 */
export async function listSubnets({
  db,
  productId,
  filters = {},
  after,
}: {
  db: Db;
  productId: ProductId;
  filters?: SubnetFilters;
  after?: string;
}): Promise<SubnetsData> {
  const [[counts], [subnetCount], rows] = await Promise.all([
    db.select().from(proxyIpCounts).where(eq(proxyIpCounts.productId, productId)),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(proxySubnetCounts)
      .where(and(eq(proxySubnetCounts.productId, productId), gt(proxySubnetCounts.total, 0))),
    db
      .select()
      .from(proxySubnetCounts)
      .where(subnetsWhere(db, productId, filters, after))
      .orderBy(sql`${proxySubnetCounts.subnet}::cidr`)
      .limit(SUBNETS_PAGE_SIZE + 1),
  ]);
  const page = rows.slice(0, SUBNETS_PAGE_SIZE);
  return {
    totalSubnets: Number(subnetCount?.count ?? 0),
    totalIps: counts?.total ?? 0,
    assignedIps: counts?.assigned ?? 0,
    burntIps: counts?.burnt ?? 0,
    availableIps: counts?.available ?? 0,
    subnets: page.map((row) => ({ ...counted(row), ips: [] })),
    next: rows.length > SUBNETS_PAGE_SIZE ? (page.at(-1)?.subnet ?? null) : null,
  };
}

/**
 * GET /api/admin/ips/{pk1,isp}/subnets?subnet=…: one subnet's counts and, unless `withIps` is false, its IPs in address
 * order (those in `state` and held by `customer` when given). A subnet the pool does not hold is a 404.
 */
export async function getSubnet({
  db,
  productId,
  subnet,
  filters = {},
  withIps,
}: {
  db: Db;
  productId: ProductId;
  subnet: string;
  filters?: Omit<SubnetFilters, 'search'>;
  withIps: boolean;
}): Promise<SubnetsData> {
  const [[counts], [row], ips] = await Promise.all([
    db.select().from(proxyIpCounts).where(eq(proxyIpCounts.productId, productId)),
    db
      .select()
      .from(proxySubnetCounts)
      .where(
        and(
          eq(proxySubnetCounts.productId, productId),
          eq(proxySubnetCounts.subnet, subnet),
          gt(proxySubnetCounts.total, 0),
        ),
      ),
    withIps
      ? db
          .select({
            ip: proxyIps.ip,
            endpoint: proxyIps.endpoint,
            assignedOrderId: proxyIps.assignedOrderId,
            needRotated: proxyIps.needRotated,
          })
          .from(proxyIps)
          .where(
            and(
              eq(proxyIps.productId, productId),
              eq(proxyIps.subnet, subnet),
              filters.state === undefined ? undefined : ipInState(filters.state),
              filters.customer ? inArray(proxyIps.assignedOrderId, customerOrders(db, filters.customer)) : undefined,
            ),
          )
          .orderBy(sql`${proxyIps.ip}::inet`, asc(proxyIps.port))
      : Promise.resolve([]),
  ]);
  if (!row) throw new AppError('NOT_FOUND', adminMessages.unknownSubnet);
  return {
    totalSubnets: 1,
    totalIps: counts?.total ?? 0,
    assignedIps: counts?.assigned ?? 0,
    burntIps: counts?.burnt ?? 0,
    availableIps: counts?.available ?? 0,
    subnets: [
      {
        ...counted(row),
        ips: ips.map((ip) => ({
          ip: ip.ip,
          endpoint: ip.endpoint,
          isAssigned: ip.assignedOrderId !== null,
          assignedToEntityId: ip.assignedOrderId,
          needRotated: ip.needRotated,
        })),
      },
    ],
    next: null,
  };
}
