import {
  formatEndpoint,
  generateResidentialList,
  type ProductId,
  type ProxyListQuery,
  proxyUserUsername,
} from '@storefront/contract';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, proxyIps, proxyUsers, residentialAccounts } from '../../db/schema.ts';

/**
 * The customer's current proxies as lines of text for a tool that loads a list by URL: the IPs held by the customer's
 * live orders (delivered or processing; an expired order has given its IPs back), newest order first and by address
 * within one (the Proxies page's order), in the asked format. For
 * residential, `count` generated lines with the targeting asked for (the Proxies page's generator), for the main
 * user or, with `user`, one of the customer's live proxy users (none for a name it does not have).
 */
export async function proxyListLines({
  db,
  userId,
  query,
  gatewayEndpoint,
}: {
  db: Db;
  userId: string;
  query: ProxyListQuery;
  gatewayEndpoint: string;
}): Promise<string[]> {
  if (query.product === 'residential_proxies') {
    const [account] = await db
      .select({ username: residentialAccounts.username, password: residentialAccounts.password })
      .from(residentialAccounts)
      .where(eq(residentialAccounts.userId, userId));
    if (!account) return [];
    let credentials = account;
    if (query.user !== undefined) {
      const [proxyUser] = await db
        .select({ name: proxyUsers.name, password: proxyUsers.password })
        .from(proxyUsers)
        .where(and(eq(proxyUsers.userId, userId), eq(proxyUsers.name, query.user), isNull(proxyUsers.deletedAt)));
      if (!proxyUser) return [];
      credentials = { username: proxyUserUsername(account.username, proxyUser.name), password: proxyUser.password };
    }
    const lines = generateResidentialList(
      { endpoint: gatewayEndpoint, ...credentials },
      { count: query.count, type: query.type, country: query.country },
    );
    return lines.map((line) => formatEndpoint(line, query.format));
  }
  const products: ProductId[] = query.product ? [query.product] : ['isp_proxies', 'pk1_isp_proxies'];
  const rows = await db
    .select({ endpoint: proxyIps.endpoint })
    .from(proxyIps)
    .innerJoin(orders, eq(orders.id, proxyIps.assignedOrderId))
    .where(
      and(
        eq(orders.userId, userId),
        inArray(orders.productId, products),
        inArray(orders.status, ['delivered', 'processing']),
      ),
    )
    .orderBy(desc(orders.purchasedAt), desc(orders.createdAt), sql`${proxyIps.ip}::inet`, proxyIps.port);
  return rows.map((row) => formatEndpoint(row.endpoint, query.format));
}
