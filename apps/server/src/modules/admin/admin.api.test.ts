import { adminMessages, type SubnetsData } from '@storefront/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, orders, proxyIps, residentialAccounts, residentialUsageDaily } from '../../db/schema.ts';
import { callApi, createTestApp, type Method, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { ALERT_ACTOR } from '../alerts/check-alerts.ts';
import { ADMIN_PREFIX } from './admin-api.ts';

const DAY = 86_400_000;
const lines = (third: number, from: number, count: number, port = 9000) =>
  Array.from(
    { length: count },
    (_, index) => `198.51.${third}.${from + index}:${port}:u${from + index}:p${from + index}`,
  );

describe('the admin console API', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let ann: { cookie: string; id: string };
  const call = (cookie: string | undefined, method: Method, url: string, payload?: unknown) =>
    callApi(t, method, url, { cookie, payload });
  const get = (url: string, cookie = boss.cookie) => call(cookie, 'GET', url);
  const post = (url: string, payload: unknown, cookie = boss.cookie) => call(cookie, 'POST', url, payload);
  // The administrators' own changes: the shop's alerts (opened and resolved in the background) are in the log too.
  const auditActions = async () =>
    (await t.database.db.select().from(adminAuditLog))
      .filter((row) => row.actorUserId !== ALERT_ACTOR.id)
      .map((row) => `${row.action} by ${row.actorEmail}`);

  beforeAll(async () => {
    t = await createTestApp({
      SEED_DEMO: 'false',
      ADMIN_EMAILS: 'boss@example.com',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
    });
    boss = await signUpCustomer(t, 'boss@example.com');
    ann = await signUpCustomer(t, 'ann@example.com');
  });
  afterAll(() => t.close());

  it('answers every /api/admin route of the route table with 401 to a visitor and 403 to a customer', async () => {
    const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith(ADMIN_PREFIX))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => ({
          method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
          url: path.replaceAll('{pool}', 'pk1').replace(/\{\w+Id\}/g, '00000000-0000-4000-8000-000000000000'),
        })),
      );
    // Features, stocks, uploads, subnets, swaps, users, custom orders, coupons, the audit log, the sandbox clock.
    expect(routes.length).toBeGreaterThanOrEqual(19);
    for (const route of routes) {
      const label = `${route.method} ${route.url}`;
      const visitor = await call(
        undefined,
        route.method,
        route.url,
        ['GET', 'DELETE'].includes(route.method) ? undefined : {},
      );
      expect(visitor.statusCode, label).toBe(401);
      expect(visitor.json(), label).toEqual({ message: 'No authentication token available' });
      const customer = await call(
        ann.cookie,
        route.method,
        route.url,
        ['GET', 'DELETE'].includes(route.method) ? undefined : {},
      );
      expect(customer.statusCode, label).toBe(403);
      if (route.method === 'GET') {
        expect([200, 400, 404], label).toContain((await get(route.url)).statusCode);
        // The HEAD route Fastify adds beside each GET is guarded the same way.
        const head = (cookie?: string) =>
          t.app.inject({ method: 'HEAD', url: route.url, headers: { ...(cookie && { cookie }) } });
        expect((await head()).statusCode, `HEAD ${route.url}`).toBe(401);
        expect((await head(ann.cookie)).statusCode, `HEAD ${route.url}`).toBe(403);
      }
    }
    expect(await auditActions()).toEqual([]);
  });

  it('switches products with the whole list, refuses unknown names, and records who did it', async () => {
    const before = (await get('/api/admin/features')).json();
    expect(before.map((feature: { featureName: string }) => feature.featureName)).toEqual([
      'isp_proxies',
      'pk1_isp_proxies',
      'residential_proxies',
    ]);
    const off = before.map((feature: { featureName: string }) => ({
      featureName: feature.featureName,
      isEnabled: feature.featureName !== 'pk1_isp_proxies',
    }));
    const answered = await post('/api/admin/features', off);
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toEqual(off);
    expect((await t.app.inject({ url: '/api/features' })).json()).toEqual(off);
    const refused = await post('/api/admin/features', [{ featureName: 'datacenter', isEnabled: true }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(adminMessages.unknownFeature('datacenter'));
    expect((await post('/api/admin/features', { featureName: 'isp_proxies' })).statusCode).toBe(400);
    await post('/api/admin/features', before);
    expect(await auditActions()).toEqual(['feature.toggle by boss@example.com', 'feature.toggle by boss@example.com']);
  });

  it('validates uploads as the page does and writes nothing when a line is bad', async () => {
    const empty = await post('/api/admin/stocks/pk1/upload', { ips: ['', '  '] });
    expect(empty.json()).toEqual({ message: 'Please enter at least one IP' });
    const bad = await post('/api/admin/stocks/isp/upload', {
      ips: ['198.51.1.1:80:u:p', '198.51.1.256:80:u:p', '198.51.1.2:0:u:p', '198.51.1.3:80:u:p:x', '1.2.3:80:u:p'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Invalid format on lines: 2, 3, 4, 5. Expected format: IP:PORT:USERNAME:PASSWORD');
    expect((await post('/api/admin/stocks/dc/upload', { ips: lines(1, 1, 1) })).statusCode).toBe(400);
    expect(await t.database.db.select().from(proxyIps)).toEqual([]);
  });

  it('counts both pools, lists subnets, and swaps a subnet in place for the customer holding it', async () => {
    // Two uploads, so that the first subnet's IPs are the oldest and sold first.
    expect((await post('/api/admin/stocks/pk1/upload', { ips: lines(1, 1, 10) })).json()).toEqual({
      message: '10 IPs added.',
      added: 10,
      skipped: 0,
      delivered: 0,
    });
    expect((await post('/api/admin/stocks/pk1/upload', { ips: lines(2, 1, 5) })).json()).toMatchObject({ added: 5 });
    expect((await post('/api/admin/stocks/isp/upload', { ips: lines(9, 1, 3) })).json()).toMatchObject({ added: 3 });

    // Ann buys 5 PK1 IPs, all in 198.51.1.0/24.
    const started = (await post('/api/checkout', { productId: 'pk1_isp_proxies', quantity: 5 }, ann.cookie)).json();
    const checkoutId = String(started.checkoutUrl).split('/sandbox/checkout/')[1];
    expect((await post(`/api/sandbox/checkout/${checkoutId}/pay`, { card: 'ok' }, ann.cookie)).statusCode).toBe(200);
    const [order] = (await get('/api/orders', ann.cookie)).json();
    expect(order.proxies).toHaveLength(5);

    expect((await get('/api/admin/stocks/pk1')).json()).toEqual({
      totalIps: 15,
      soldIps: 5,
      availableIps: 10,
      burntIps: 0,
      usagePercentage: 33.33,
      recycles: [],
      recyclesNext: null,
    });
    expect((await get('/api/admin/stocks/isp')).json()).toMatchObject({ totalIps: 3, availableIps: 3 });

    const subnets: SubnetsData = (await get('/api/admin/ips/pk1/subnets')).json();
    expect(subnets).toMatchObject({ totalSubnets: 2, totalIps: 15, assignedIps: 5, burntIps: 0, availableIps: 10 });
    expect(subnets.next).toBeNull();
    expect(subnets.subnets).toEqual([
      { subnet: '198.51.1.0/24', totalIps: 10, assignedIps: 5, unassignedIps: 5, burntIps: 0, ips: [] },
      { subnet: '198.51.2.0/24', totalIps: 5, assignedIps: 0, unassignedIps: 5, burntIps: 0, ips: [] },
    ]);
    const first: SubnetsData = (await get('/api/admin/ips/pk1/subnets?subnet=198.51.1.0/24')).json();
    const held = first.subnets[0]?.ips.filter((ip) => ip.isAssigned) ?? [];
    expect(held.map((ip) => ip.endpoint).sort()).toEqual([...order.proxies].sort());
    expect(held[0]).toEqual({
      ip: expect.stringMatching(/^198\.51\.1\./),
      endpoint: expect.stringMatching(/^198\.51\.1\.\d+:9000:/),
      isAssigned: true,
      assignedToEntityId: order.id,
      needRotated: false,
    });
    const summary: SubnetsData = (await get('/api/admin/ips/pk1/subnets?ips=false')).json();
    expect(summary.subnets.every((subnet) => subnet.ips.length === 0)).toBe(true);
    const one: SubnetsData = (await get('/api/admin/ips/pk1/subnets?subnet=198.51.2.0/24')).json();
    expect(one.subnets.map((subnet) => [subnet.subnet, subnet.ips.length])).toEqual([['198.51.2.0/24', 5]]);

    // Refusals change nothing: a wrong count, a bad line, an endpoint already in the pool, an unknown subnet.
    const swap = (subnet: string, newEndpoints: string[]) =>
      post('/api/admin/ips/pk1/subnets/swap', { subnet, newEndpoints });
    const wrongCount = await swap('198.51.1.0/24', lines(7, 1, 9));
    expect(wrongCount.json().message).toBe("Number of endpoints (9) must match the subnet's IP count (10)");
    const badLine = await swap('198.51.1.0/24', [...lines(7, 1, 9), 'not-an-endpoint']);
    expect(badLine.json().message).toBe('Invalid format on lines: 10. Expected format: IP:PORT:USERNAME:PASSWORD');
    expect((await swap('198.51.1.0/24', [])).json().message).toBe('Please enter at least one endpoint');
    const taken = await swap('198.51.1.0/24', [...lines(7, 1, 9), '198.51.2.1:9000:u:p']);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/already in the pool: 198\.51\.2\.1:9000/);
    expect((await swap('10.0.0.0/24', lines(7, 1, 10))).statusCode).toBe(404);
    expect((await get('/api/orders', ann.cookie)).json()[0].proxies).toEqual(order.proxies);

    const swapped = await swap('198.51.1.0/24', lines(7, 1, 10, 7000));
    expect(swapped.statusCode).toBe(200);
    expect(swapped.json()).toMatchObject({ swapped: 10, delivered: 0 });
    expect(swapped.json().message).toMatch(/^IPs Swapped Successfully/);
    // Each IP of the subnet, lowest first, took the endpoint on the same line: 198.51.1.k became 198.51.7.k.
    const after = (await get('/api/orders', ann.cookie)).json()[0];
    expect(after.id).toBe(order.id);
    const renamed = order.proxies.map((endpoint: string) => {
      const k = endpoint.split(':')[0]?.split('.')[3];
      return `198.51.7.${k}:7000:u${k}:p${k}`;
    });
    expect([...after.proxies].sort()).toEqual(renamed.sort());
    const moved: SubnetsData = (await get('/api/admin/ips/pk1/subnets?ips=false')).json();
    expect(moved.subnets.map((subnet) => [subnet.subnet, subnet.totalIps, subnet.assignedIps])).toEqual([
      ['198.51.2.0/24', 5, 0],
      ['198.51.7.0/24', 10, 5],
    ]);
    expect(await auditActions()).toEqual(
      expect.arrayContaining(['ips.upload by boss@example.com', 'subnet.swap by boss@example.com']),
    );
  });

  it("lists an expired order's burnt IPs, and a swap clears them and delivers the order waiting for them", async () => {
    const db = t.database.db;
    const [order] = (await get('/api/orders', ann.cookie)).json();
    const heldIps = order.proxies.map((endpoint: string) => endpoint.split(':')[0]);
    // The order ends: its IPs are released and burnt.
    await db.update(orders).set({ cancelled: true }).where(eq(orders.id, order.id));
    const clock = await post('/api/admin/sandbox/clock', { now: new Date(Date.now() + 40 * DAY).toISOString() });
    expect(clock.json().expired).toBe(1);
    const stock = (await get('/api/admin/stocks/pk1')).json();
    expect(stock).toMatchObject({ totalIps: 15, soldIps: 0, burntIps: 5, availableIps: 10 });
    expect(stock.recycles.map((entry: { ip: string }) => entry.ip).sort()).toEqual([...heldIps].sort());

    // A customer waits for 15 PK1 IPs; only 10 are available until the burnt ones are swapped.
    const [waiting] = await db
      .insert(orders)
      .values({
        userId: ann.id,
        productId: 'pk1_isp_proxies',
        quantity: 15,
        status: 'processing',
        purchasedAt: new Date(),
        expiresAt: new Date(Date.now() + 30 * DAY),
      })
      .returning();
    const swapped = (
      await post('/api/admin/ips/pk1/subnets/swap', { subnet: '198.51.7.0/24', newEndpoints: lines(8, 1, 10) })
    ).json();
    expect(swapped).toMatchObject({ swapped: 10, delivered: 1 });
    expect((await get('/api/admin/stocks/pk1')).json()).toMatchObject({ burntIps: 0, recycles: [], soldIps: 15 });
    expect(
      (
        await db
          .select()
          .from(orders)
          .where(eq(orders.id, waiting?.id ?? ''))
      )[0]?.status,
    ).toBe('delivered');
  });

  it('sets the residential pool, never below what is sold, and a larger pool delivers waiting orders', async () => {
    const put = (bandwidthLimit: unknown) =>
      call(boss.cookie, 'PUT', '/api/admin/stocks/residential', { bandwidthLimit });
    expect((await put(-1)).json().message).toBe('The limit cannot be negative.');
    expect((await put(1.5)).json().message).toBe('The limit is a whole number of MB.');
    expect((await put('lots')).statusCode).toBe(400);

    expect((await put(0)).json()).toMatchObject({ bandwidthLimit: 0, bandwidthAvailable: 0, delivered: 0 });
    const started = (await post('/api/checkout', { productId: 'residential_proxies', quantity: 2 }, ann.cookie)).json();
    const checkoutId = String(started.checkoutUrl).split('/sandbox/checkout/')[1];
    await post(`/api/sandbox/checkout/${checkoutId}/pay`, { card: 'ok' }, ann.cookie);
    expect((await get('/api/orders/processing', ann.cookie)).json()).toHaveLength(1);

    const raised = (await put(5000)).json();
    expect(raised).toMatchObject({ bandwidthLimit: 5000, bandwidthUsed: 2000, bandwidthAvailable: 3000, delivered: 1 });
    expect(raised.usagePercentage).toBe(40);
    expect((await get('/api/orders/processing', ann.cookie)).json()).toEqual([]);
    const below = await put(1000);
    expect(below.statusCode).toBe(400);
    expect(below.json().message).toBe('The limit cannot be below the data already sold (2,000 MB).');
    expect((await get('/api/admin/stocks/residential')).json()).toEqual({
      bandwidthUsed: 2000,
      bandwidthLimit: 5000,
      bandwidthAvailable: 3000,
      usagePercentage: 40,
      bandwidthCarried: 0,
      topUpsThisMonth: { paid: 0, paidCents: 0, failed: 0, currency: 'usd' },
    });
  });

  it('shows the data the gateway carried: in the stock, per day for the admin, and per day for each customer alone', async () => {
    const db = t.database.db;
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const other = await signUpCustomer(t, 'other-res@example.com');
    await db.insert(residentialAccounts).values({ userId: other.id, username: 'resother', password: 'x', totalKb: 0 });
    await db.update(residentialAccounts).set({ usedKb: 3072 }).where(eq(residentialAccounts.userId, ann.id));
    await db.update(residentialAccounts).set({ usedKb: 1024 }).where(eq(residentialAccounts.userId, other.id));
    await db.insert(residentialUsageDaily).values([
      { userId: ann.id, day: yesterday, usedKb: 1024 },
      { userId: ann.id, day: today, usedKb: 2048 },
      { userId: other.id, day: today, usedKb: 1024 },
      { userId: other.id, day: '2020-01-01', usedKb: 99 },
    ]);
    expect((await get('/api/admin/stocks/residential')).json().bandwidthCarried).toBe(4);
    // The month's heaviest users, most first; days of other months are not counted.
    const top = (await get('/api/admin/stocks/residential/top-customers')).json();
    expect(top.month).toBe(today.slice(0, 7));
    const annThisMonth = yesterday.slice(0, 7) === today.slice(0, 7) ? 3072 : 2048;
    expect(top.customers.map((c: { email: string; usedInKb: number }) => [c.email, c.usedInKb])).toEqual([
      ['ann@example.com', annThisMonth],
      ['other-res@example.com', 1024],
    ]);
    const all = (await get('/api/admin/stocks/residential/daily')).json().days;
    expect(all).toHaveLength(30);
    expect(all.at(-1)).toEqual({ day: today, usedInKb: 3072 });
    expect(all.at(-2)).toEqual({ day: yesterday, usedInKb: 1024 });
    expect(all.slice(0, -2).every((entry: { usedInKb: number }) => entry.usedInKb === 0)).toBe(true);
    const own = (await get('/api/orders/usage/daily', ann.cookie)).json().days;
    expect(own.at(-1)).toEqual({ day: today, usedInKb: 2048 });
    expect((await get('/api/orders/usage/daily', other.cookie)).json().days.at(-1)).toEqual({
      day: today,
      usedInKb: 1024,
    });
    expect((await get('/api/admin/stocks/residential/daily', ann.cookie)).statusCode).toBe(403);
    expect((await call(undefined, 'GET', '/api/orders/usage/daily')).statusCode).toBe(401);

    // The days' totals are kept through the meter's upserts, ten at once, and a customer's rows deleted with them.
    const meter = (kb: number) =>
      db.execute(sql`insert into residential_usage_daily (user_id, day, used_kb)
        values (${ann.id}, ${today}::date, ${kb}), (${other.id}, ${today}::date, ${kb}), (${other.id}, ${yesterday}::date, ${kb})
        on conflict (user_id, day) do update set used_kb = residential_usage_daily.used_kb + excluded.used_kb`);
    await Promise.all(Array.from({ length: 10 }, (_, n) => meter(n + 1)));
    const days = async () => (await get('/api/admin/stocks/residential/daily')).json().days.slice(-2);
    expect(await days()).toEqual([
      { day: yesterday, usedInKb: 1024 + 55 },
      { day: today, usedInKb: 3072 + 2 * 55 },
    ]);
    await db.delete(residentialAccounts).where(eq(residentialAccounts.userId, other.id));
    expect(await days()).toEqual([
      { day: yesterday, usedInKb: 1024 },
      { day: today, usedInKb: 2048 + 55 },
    ]);
  });

  it('keeps an audit log of every change, newest first, a page at a time', async () => {
    const log = (await get('/api/admin/audit-log')).json();
    expect(log.next).toBeNull();
    const changes = log.entries.filter((entry: { actorEmail: string }) => entry.actorEmail !== ALERT_ACTOR.email);
    expect(changes.map((entry: { action: string }) => entry.action)).toEqual([
      'residential.limit',
      'residential.limit',
      'subnet.swap',
      'sandbox.clock',
      'subnet.swap',
      'ips.upload',
      'ips.upload',
      'ips.upload',
      'feature.toggle',
      'feature.toggle',
    ]);
    expect(changes[2]).toMatchObject({
      actorEmail: 'boss@example.com',
      summary: expect.stringMatching(/^10 IPs of 198\.51\.7\.0\/24 swapped \(now 198\.51\.8\.0\/24\); 5 burnt cleared/),
      details: expect.objectContaining({ swapped: 10, burntCleared: 5, delivered: 1 }),
    });
    expect((await get('/api/admin/audit-log?action=residential.limit')).json().entries).toHaveLength(2);
    expect((await get('/api/admin/audit-log?before=2')).statusCode).toBe(400);
  });
});

describe('the admin context', () => {
  it('refuses to start with a route under /api/admin declared outside it (it would be open to anyone)', async () => {
    const stray = await createTestApp({ SEED_DEMO: 'false' });
    try {
      stray.app.get(`${ADMIN_PREFIX}stray`, async () => ({ open: true }));
      await expect(stray.app.ready()).rejects.toThrow(/declared outside the admin context: \/api\/admin\/stray/);
    } finally {
      await stray.close().catch(() => {});
    }
  });
});
