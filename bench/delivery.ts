// Time to deliver paid orders on PostgreSQL: 1,000 orders of 5 IPs one after the other, then 1,000 in parallel
// (10 connections) with stock for all, then 1,000 against a pool that holds 600 of them, then the 50-against-100 run
// of the tests.
import { orders, proxyIps, users } from '../apps/server/src/db/schema.ts';
import { handlePaymentEvent } from '../apps/server/src/modules/billing/handle-event.ts';
import { paidEvent, testBrand, testPool } from '../apps/server/src/test/payments.ts';
import { createBenchDatabase } from './bench-database.ts';

const bench = await createBenchDatabase();
const { database } = bench;
try {
  const db = database.db;
  const [user] = await db.insert(users).values({ id: 'bench', name: 'bench', email: 'bench@example.com' }).returning();

  async function run(label: string, poolSize: number, count: number, parallel: boolean) {
    await db.delete(proxyIps);
    const pool = testPool(poolSize).map((row, index) => ({
      ...row,
      ip: `10.${Math.floor(index / 65_000)}.${Math.floor(index / 250) % 256}.${(index % 250) + 1}`,
    }));
    for (let i = 0; i < pool.length; i += 1000) await db.insert(proxyIps).values(pool.slice(i, i + 1000));
    const created = await db
      .insert(orders)
      .values(
        Array.from({ length: count }, () => ({
          userId: user?.id ?? '',
          productId: 'isp_proxies' as const,
          quantity: 5,
        })),
      )
      .returning({ id: orders.id });
    const started = performance.now();
    const outcomes: string[] = [];
    if (parallel)
      outcomes.push(
        ...(await Promise.all(
          created.map((order) =>
            handlePaymentEvent({ db, provider: 'sandbox', event: paidEvent(order.id), brand: testBrand }),
          ),
        )),
      );
    else
      for (const order of created)
        outcomes.push(
          await handlePaymentEvent({ db, provider: 'sandbox', event: paidEvent(order.id), brand: testBrand }),
        );
    const ms = performance.now() - started;
    const delivered = outcomes.filter((outcome) => outcome === 'delivered').length;
    const held = await db.$count(proxyIps, undefined);
    console.log(
      `${label}: ${count} orders in ${ms.toFixed(0)} ms (${(ms / count).toFixed(2)} ms each, ${((count / ms) * 1000).toFixed(0)} orders/s); ` +
        `${delivered} delivered, ${count - delivered} processing; pool ${held} IPs`,
    );
  }

  await run('sequential, enough stock', 5000, 1000, false);
  await run('parallel, 10 connections, enough stock', 5000, 1000, true);
  await run('parallel, 10 connections, stock for 600', 3000, 1000, true);
  await run('parallel, 50 orders of 5 against 100 IPs', 100, 50, true);
} finally {
  await bench.drop();
}
