import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, proxyIpCounts, proxyIps, proxySubnetCounts } from '../../db/schema.ts';
import { paidEvent, testBrand } from '../../test/payments.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { expireOrder } from '../billing/expire-order.ts';
import { handlePaymentEvent } from '../billing/handle-event.ts';
import { swapSubnet } from './swap-subnet.ts';
import { uploadIps } from './upload-ips.ts';

const line = (a: number, b: number, port: number) => `10.${a}.${b}.1:${port}:u:p`;

/** Every product's counts, as kept and as a count of the pool would find them. */
async function keptAndCounted(t: TestApp) {
  const db = t.database.db;
  const kept = await db.select().from(proxyIpCounts).orderBy(proxyIpCounts.productId);
  const counted = await db
    .select({
      productId: proxyIps.productId,
      total: sql<number>`count(*)::int`,
      assigned: sql<number>`count(${proxyIps.assignedOrderId})::int`,
      burnt: sql<number>`(count(*) filter (where ${proxyIps.needRotated}))::int`,
      available: sql<number>`(count(*) filter (where ${proxyIps.assignedOrderId} is null and not ${proxyIps.needRotated}))::int`,
    })
    .from(proxyIps)
    .groupBy(proxyIps.productId)
    .orderBy(proxyIps.productId);
  const nonEmpty = kept.filter((row) => row.total > 0);
  return { kept: nonEmpty, counted: counted.map((row) => ({ ...row, total: Number(row.total) })) };
}

/** Every subnet's counts, as kept and as a count of the pool would find them. */
async function subnetsKeptAndCounted(t: TestApp) {
  const db = t.database.db;
  const kept = await db
    .select()
    .from(proxySubnetCounts)
    .where(sql`${proxySubnetCounts.total} > 0`)
    .orderBy(proxySubnetCounts.productId, proxySubnetCounts.subnet);
  const counted = await db
    .select({
      productId: proxyIps.productId,
      subnet: proxyIps.subnet,
      total: sql<number>`count(*)::int`,
      assigned: sql<number>`count(${proxyIps.assignedOrderId})::int`,
      burnt: sql<number>`(count(*) filter (where ${proxyIps.needRotated}))::int`,
      available: sql<number>`(count(*) filter (where ${proxyIps.assignedOrderId} is null and not ${proxyIps.needRotated}))::int`,
    })
    .from(proxyIps)
    .groupBy(proxyIps.productId, proxyIps.subnet)
    .orderBy(proxyIps.productId, proxyIps.subnet);
  return { kept, counted: counted.map((row) => ({ ...row, total: Number(row.total) })) };
}

describe('kept IP counts, per pool and per subnet', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let ann: { cookie: string; id: string };

  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: 'false', ADMIN_EMAILS: 'boss@example.com', AUTH_RATE_LIMIT_PER_IP: '1000' });
    boss = await signUpCustomer(t, 'boss@example.com');
    ann = await signUpCustomer(t, 'ann@example.com');
  });
  afterAll(() => t.close());

  const actor = () => ({ id: boss.id, email: 'boss@example.com' });
  const upload = (lines: string[]) =>
    uploadIps({ db: t.database.db, brand: testBrand, actor: actor(), productId: 'isp_proxies', lines });
  const paidOrders = async (count: number, quantity: number) =>
    t.database.db
      .insert(orders)
      .values(
        Array.from({ length: count }, () => ({
          userId: ann.id,
          productId: 'isp_proxies' as const,
          quantity,
          totalCents: 100,
        })),
      )
      .returning({ id: orders.id });
  const pay = (id: string) =>
    handlePaymentEvent({ db: t.database.db, provider: 'sandbox', event: paidEvent(id), brand: testBrand });

  it('stay exact under 20 parallel deliveries, swaps, uploads and expiries, and are what pricing and the cards read', async () => {
    const db = t.database.db;
    // 20 subnets of 4 IPs (10.1.<s>.1, ports 1..4), and 20 orders of 2 IPs delivered from them, then ended (burnt).
    await upload(Array.from({ length: 20 }, (_, s) => [1, 2, 3, 4].map((port) => line(1, s, port))).flat());
    const first = await paidOrders(20, 2);
    for (const order of first) expect(await pay(order.id)).toBe('delivered');
    const half = first.slice(0, 10);
    expect((await keptAndCounted(t)).kept).toEqual([
      { productId: 'isp_proxies', total: 80, assigned: 40, burnt: 0, available: 40 },
    ]);

    const second = await paidOrders(20, 3);
    const expire = (id: string) =>
      db.transaction(async (tx) => {
        const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
        if (order) await expireOrder({ tx, brand: testBrand, order, endedAt: new Date() });
      });
    const swap = (s: number) =>
      swapSubnet({
        db,
        brand: testBrand,
        actor: actor(),
        productId: 'isp_proxies',
        subnet: `10.1.${s}.0/24`,
        newEndpoints: [1, 2, 3, 4].map((port) => line(2, s, port)),
      });
    await Promise.all([
      ...second.map((order) => pay(order.id)),
      ...half.map((order) => expire(order.id)),
      ...Array.from({ length: 20 }, (_, s) => swap(s)),
      ...Array.from({ length: 20 }, (_, u) => upload([line(3, u, 1), line(3, u, 2), line(1, 0, 1)])),
    ]);

    const { kept, counted } = await keptAndCounted(t);
    expect(kept).toEqual(counted);
    expect(kept[0]?.total).toBeGreaterThanOrEqual(120);
    const subnets = await subnetsKeptAndCounted(t);
    expect(subnets.kept).toEqual(subnets.counted);
    expect(subnets.kept.length).toBeGreaterThanOrEqual(40);

    const { plans } = (await callApi(t, 'GET', '/api/pricing')).json() as { plans: { id: string; stock: number }[] };
    expect(plans.find((plan) => plan.id === 'isp_proxies')?.stock).toBe(counted[0]?.available);
    const card = (await callApi(t, 'GET', '/api/admin/stocks/isp', { cookie: boss.cookie })).json();
    expect(card).toMatchObject({
      totalIps: counted[0]?.total,
      soldIps: counted[0]?.assigned,
      burntIps: counted[0]?.burnt,
      availableIps: counted[0]?.available,
    });
  });

  it('follow deletions and an emptied pool', async () => {
    const db = t.database.db;
    await db.delete(proxyIps).where(eq(proxyIps.subnet, '10.3.0.0/24'));
    let { kept, counted } = await keptAndCounted(t);
    expect(kept).toEqual(counted);
    let subnets = await subnetsKeptAndCounted(t);
    expect(subnets.kept).toEqual(subnets.counted);
    expect(subnets.kept.map((row) => row.subnet)).not.toContain('10.3.0.0/24');
    await db.execute(sql`truncate ${proxyIps}`);
    ({ kept, counted } = await keptAndCounted(t));
    expect(kept).toEqual([]);
    expect(counted).toEqual([]);
    subnets = await subnetsKeptAndCounted(t);
    expect(subnets).toEqual({ kept: [], counted: [] });
  });
});
