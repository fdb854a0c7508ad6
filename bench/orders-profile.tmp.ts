import { orderListSchema } from '@storefront/contract';
import { sql } from 'drizzle-orm';
import { orders, proxyIps, users } from '../apps/server/src/db/schema.ts';
import { listOrders } from '../apps/server/src/modules/orders/list-orders.ts';
import { createBenchDatabase } from './bench-database.ts';
const bench = await createBenchDatabase();
const db = bench.database.db;
const COUNT = 10_000;
try {
  const [user] = await db.insert(users).values({ id: 'b', name: 'b', email: 'b@example.com' }).returning();
  const [order] = await db.insert(orders).values({ userId: 'b', productId: 'isp_proxies', quantity: COUNT, status: 'delivered', purchasedAt: new Date(), expiresAt: new Date(Date.now() + 1e9) }).returning();
  const rows = Array.from({ length: COUNT }, (_, index) => {
    const ip = `10.${Math.floor(index / 62_500)}.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
    return { productId: 'isp_proxies' as const, ip, port: 8000, username: 'user', password: 'secretpass', endpoint: `${ip}:8000:user:secretpass`, subnet: 'x', assignedOrderId: order?.id };
  });
  for (let i = 0; i < rows.length; i += 2000) await db.insert(proxyIps).values(rows.slice(i, i + 2000));
  await db.execute(sql`analyze`);
  const time = async (label: string, f: () => Promise<unknown> | unknown, n = 30) => {
    await f();
    const t = performance.now();
    for (let i = 0; i < n; i++) await f();
    console.log(label, ((performance.now() - t) / n).toFixed(2), 'ms');
  };
  const list = await listOrders({ db, userId: user?.id ?? '' });
  await time('listOrders', () => listOrders({ db, userId: 'b' }));
  await time('zod parse', () => orderListSchema.parse(list));
  await time('JSON.stringify', () => JSON.stringify(list));
  const r = await db.execute(sql`explain analyze select assigned_order_id, array_agg(endpoint order by ip::inet, port) from proxy_ips where assigned_order_id in (${order?.id}) group by assigned_order_id`);
  console.log((r.rows as { 'QUERY PLAN': string }[]).map((x) => x['QUERY PLAN']).join('\n'));
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const r2 = await tx.execute(sql`explain analyze select assigned_order_id, json_agg(endpoint order by ip::inet, port) from proxy_ips where assigned_order_id in (${order?.id}) group by assigned_order_id`);
    console.log((r2.rows as { 'QUERY PLAN': string }[]).map((x) => x['QUERY PLAN']).join('\n'));
    const r3 = await tx.execute(sql`explain analyze select json_agg(endpoint) from (select endpoint from proxy_ips where assigned_order_id = ${order?.id} order by assigned_order_id, ip::inet, port) x`);
    console.log((r3.rows as { 'QUERY PLAN': string }[]).map((x) => x['QUERY PLAN']).join('\n'));
  });
  await time('rows, no agg', () => db.select({ e: proxyIps.endpoint }).from(proxyIps).where(sql`assigned_order_id = ${order?.id}`));
  await time('rows ordered', () => db.select({ e: proxyIps.endpoint }).from(proxyIps).where(sql`assigned_order_id = ${order?.id}`).orderBy(sql`ip::inet`, proxyIps.port));
  await time('agg json', () => db.execute(sql`select json_agg(endpoint order by ip::inet, port)::text as j from proxy_ips where assigned_order_id = ${order?.id}`));
  await time('agg string', () => db.execute(sql`select string_agg(endpoint, E'\n' order by ip::inet, port) as j from proxy_ips where assigned_order_id = ${order?.id}`));
} finally {
  await bench.drop();
}
