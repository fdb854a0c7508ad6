import { isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, proxyIps } from '../db/schema.ts';
import { createCoupon } from '../modules/coupons/coupons.ts';
import { recordProof } from '../test/proof-results.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../test/test-app.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const CUSTOMERS = 20;
const CHECKOUT_LIMIT = 6;

/** `count` PK1 lines in one /24 (`net` picks the subnet), ports from 9000. */
const lines = (net: number, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `198.18.${net}.${from + i}:9000:user${from + i}:pw${from + i}`);

/**
 * Two app instances on one PostgreSQL and one Redis, as a deployment behind a load balancer runs them: every write the
 * shop has is sent through both at once. (The gateway's two-process metering is gateway-process.api.test.ts; the
 * periodic job's two runners, jobs.api.test.ts.)
 */
describe.runIf(process.env.TEST_DB === 'postgres' && redisUrl)('two instances on one PostgreSQL and one Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let boss = '';
  const customers: { cookie: string; id: string }[] = [];
  const both = () => [a, b];
  const pick = (i: number) => (i % 2 === 0 ? a : b);
  const post = (t: TestApp, url: string, cookie: string, payload: unknown) =>
    callApi(t, 'POST', url, { cookie, payload });
  const mails = () => [...a.mails, ...b.mails];

  beforeAll(async () => {
    const env = {
      SEED_DEMO: 'false',
      REDIS_URL: redisUrl ?? '',
      AUTH_SECRET: 'two-instances-secret-of-thirty-two-chars',
      ADMIN_EMAILS: 'boss@example.com',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      CHECKOUT_RATE_LIMIT_PER_USER: String(CHECKOUT_LIMIT),
      // A Redis key space of this run's own, so other runs' counters never meet ours.
      REDIS_KEY_PREFIX: `two-instances-${Date.now()}:`,
    };
    a = await createTestApp(env);
    const url = a.config.database.kind === 'postgres' ? a.config.database.connectionString : '';
    b = await createTestApp({ ...env, DATABASE_URL: url });
    boss = (await signUpCustomer(a, 'boss@example.com')).cookie;
    for (let i = 0; i < CUSTOMERS; i++) customers.push(await signUpCustomer(pick(i), `buyer${i}@example.com`));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('uploads of the same IPs through both add each IP once', async () => {
    const answers = await Promise.all([
      post(a, '/api/admin/stocks/pk1/upload', boss, { ips: lines(1, 1, 40) }),
      post(b, '/api/admin/stocks/pk1/upload', boss, { ips: lines(1, 1, 40) }),
      post(b, '/api/admin/stocks/pk1/upload', boss, { ips: lines(2, 1, 20) }),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const added = answers.reduce((sum, answer) => sum + (answer.json() as { added: number }).added, 0);
    expect(added).toBe(60);
    expect(await a.database.db.$count(proxyIps)).toBe(60);
  });

  it('parallel checkouts and payments through both hand out every IP once, and queue the orders stock cannot serve', async () => {
    // 20 orders of 5 against 60 IPs: 12 delivered, 8 processing. Each checkout is paid through both instances at once.
    const checkoutIds = await Promise.all(
      customers.map(async (customer, i) => {
        const answer = await post(pick(i), '/api/checkout', customer.cookie, {
          productId: 'pk1_isp_proxies',
          quantity: 5,
        });
        const { checkoutUrl } = answer.json() as { checkoutUrl: string };
        return checkoutUrl.split('/sandbox/checkout/')[1] ?? '';
      }),
    );
    const paid = await Promise.all(
      checkoutIds.flatMap((id, i) =>
        both().map((t) => post(t, `/api/sandbox/checkout/${id}/pay`, customers[i]?.cookie ?? '', { card: 'ok' })),
      ),
    );
    expect(paid.every((answer) => answer.statusCode < 500)).toBe(true);
    const statuses = await a.database.db
      .select({ status: orders.status, n: sql<number>`count(*)::int` })
      .from(orders)
      .groupBy(orders.status);
    expect(Object.fromEntries(statuses.map((row) => [row.status, row.n]))).toEqual({ delivered: 12, processing: 8 });
    expect(await a.database.db.$count(payments)).toBe(CUSTOMERS);
    const held = await a.database.db
      .select({ order: proxyIps.assignedOrderId, n: sql<number>`count(*)::int` })
      .from(proxyIps)
      .where(isNotNull(proxyIps.assignedOrderId))
      .groupBy(proxyIps.assignedOrderId);
    expect(held.every((row) => row.n === 5)).toBe(true);
    expect(held).toHaveLength(12);

    // More stock through both: the 8 waiting orders are served, in order, each once.
    await Promise.all([
      post(a, '/api/admin/stocks/pk1/upload', boss, { ips: lines(3, 1, 40) }),
      post(b, '/api/admin/stocks/pk1/upload', boss, { ips: lines(3, 1, 40) }),
    ]);
    expect(await a.database.db.$count(orders, sql`${orders.status} = 'delivered'`)).toBe(CUSTOMERS);
    expect(await a.database.db.$count(proxyIps, isNotNull(proxyIps.assignedOrderId))).toBe(CUSTOMERS * 5);
  });

  it('a swap sent through both at once replaces the subnet once', async () => {
    const swap = { subnet: '198.18.2.0/24', newEndpoints: lines(4, 1, 20) };
    const answers = await Promise.all(both().map((t) => post(t, '/api/admin/ips/pk1/subnets/swap', boss, swap)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    // One swap happens; the other finds the subnet gone (404) or its endpoints already in the pool (409).
    expect(statuses[0], answers.map((answer) => answer.body).join(' | ')).toBe(200);
    expect([404, 409]).toContain(statuses[1]);
    const endpoints = await a.database.db.select({ endpoint: proxyIps.endpoint }).from(proxyIps);
    expect(endpoints.filter((row) => row.endpoint.startsWith('198.18.2.'))).toHaveLength(0);
    expect(endpoints.filter((row) => row.endpoint.startsWith('198.18.4.'))).toHaveLength(20);
    expect(new Set(endpoints.map((row) => row.endpoint)).size).toBe(endpoints.length);
    expect(await a.database.db.$count(proxyIps, isNotNull(proxyIps.assignedOrderId))).toBe(CUSTOMERS * 5);
  });

  it('the periodic job run through both at once renews each order once and mails each receipt once', async () => {
    const paymentsBefore = await a.database.db.$count(payments);
    const next = new Date(Date.now() + 31 * 86_400_000).toISOString();
    const answers = await Promise.all(both().map((t) => post(t, '/api/admin/sandbox/clock', boss, { now: next })));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    await Promise.all(both().map((t) => t.app.jobs.runOnce()));
    expect(await a.database.db.$count(payments)).toBe(paymentsBefore + CUSTOMERS);
    // Every e-mail of the whole test, through either instance, went out once: both send until the outbox is empty.
    await Promise.all(both().map((t) => t.mailsSettled()));
    const counts = new Map<string, number>();
    for (const mail of mails())
      counts.set(`${mail.to} ${mail.subject}`, (counts.get(`${mail.to} ${mail.subject}`) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
    const renewals = mails().filter((mail) => /Renewal receipt/.test(mail.subject));
    expect(renewals).toHaveLength(CUSTOMERS);
    recordProof('two instances', {
      orders: CUSTOMERS,
      ipsHeldTwice: 0,
      renewals: renewals.length,
      mails: mails().length,
      mailsSentTwice: twice.length,
    });
  });

  it('a one-use code tried by every customer through both instances at once starts one checkout', async () => {
    await createCoupon({
      db: a.database.db,
      code: 'ONEFORALL',
      name: 'Half off, once',
      duration: 'once',
      percentOff: 50,
      productIds: ['pk1_isp_proxies'],
      maxRedemptions: 1,
    });
    const answers = await Promise.all(
      customers.map((customer, i) =>
        post(pick(i), '/api/checkout', customer.cookie, {
          productId: 'pk1_isp_proxies',
          quantity: 5,
          coupon: 'ONEFORALL',
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(CUSTOMERS - 1);
    recordProof('one-use coupon through two instances', {
      checkouts: CUSTOMERS,
      started: statuses.filter((status) => status === 200).length,
    });
  });

  it('shares the checkout limit: a customer alternating between instances gets the limit, not twice it', async () => {
    const carl = await signUpCustomer(a, 'carl@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < CHECKOUT_LIMIT + 3; i++) {
      const answer = await post(pick(i), '/api/checkout', carl.cookie, { productId: 'pk1_isp_proxies', quantity: 5 });
      statuses.push(answer.statusCode);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(CHECKOUT_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
  });
});
