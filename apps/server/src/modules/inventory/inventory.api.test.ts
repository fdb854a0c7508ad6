import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, proxyIps } from '../../db/schema.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';

const lines = (from: number, count: number, port = 9000) =>
  Array.from(
    { length: count },
    (_, index) => `203.0.113.${from + index}:${port}:user${from + index}:pw${from + index}`,
  );

describe('PK1 upload', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let ann: { cookie: string; id: string };
  const upload = (cookie: string | undefined, ips: unknown) =>
    callApi(t, 'POST', '/api/admin/stocks/pk1/upload', { cookie, payload: { ips } });

  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: 'false', ADMIN_EMAILS: 'boss@example.com', AUTH_RATE_LIMIT_PER_IP: '1000' });
    boss = await signUpCustomer(t, 'boss@example.com');
    ann = await signUpCustomer(t, 'ann@example.com');
  });
  afterAll(() => t.close());

  it('is for administrators only', async () => {
    expect((await upload(undefined, lines(1, 1))).json()).toEqual({ message: 'No authentication token available' });
    expect((await upload(ann.cookie, lines(1, 1))).statusCode).toBe(403);
    expect(await t.database.db.select().from(proxyIps)).toEqual([]);
  });

  it('refuses empty uploads and names the bad lines, adding nothing', async () => {
    expect((await upload(boss.cookie, ['', ' '])).json()).toEqual({ message: 'Please enter at least one IP' });
    const bad = await upload(boss.cookie, ['203.0.113.1:80:u:p', 'nonsense', '203.0.113.2:70000:u:p']);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: 'Invalid format on lines: 2, 3. Expected format: IP:PORT:USERNAME:PASSWORD',
    });
    expect(await t.database.db.select().from(proxyIps)).toEqual([]);
  });

  it('adds IPs, skips duplicates, and delivers waiting orders oldest first, never overselling', async () => {
    const db = t.database.db;
    const waiting = async (quantity: number, minutesAgo: number) => {
      const [row] = await db
        .insert(orders)
        .values({
          userId: ann.id,
          productId: 'pk1_isp_proxies',
          quantity,
          status: 'processing',
          purchasedAt: new Date(Date.now() - minutesAgo * 60_000),
          expiresAt: new Date(Date.now() + 86_400_000),
        })
        .returning();
      return row?.id ?? '';
    };
    const oldest = await waiting(5, 30);
    const big = await waiting(25, 20);
    const small = await waiting(5, 10);

    const first = (await upload(boss.cookie, lines(1, 12))).json();
    // 12 IPs: the oldest order (5) is served; the next (25) cannot be, so the later small one waits behind it.
    expect(first).toEqual({ message: '12 IPs added; 1 waiting order delivered.', added: 12, skipped: 0, delivered: 1 });
    const status = async (id: string) => (await db.select().from(orders).where(eq(orders.id, id)))[0]?.status;
    expect([await status(oldest), await status(big), await status(small)]).toEqual([
      'delivered',
      'processing',
      'processing',
    ]);

    const second = (await upload(boss.cookie, [...lines(1, 12), ...lines(13, 30)])).json();
    expect(second).toMatchObject({ added: 30, skipped: 12, delivered: 2 });
    expect([await status(big), await status(small)]).toEqual(['delivered', 'delivered']);
    const held = await db.select().from(proxyIps);
    expect(held).toHaveLength(42);
    expect(held.filter((ip) => ip.assignedOrderId === null)).toHaveLength(42 - 35);
    expect(held.filter((ip) => ip.assignedOrderId === big)).toHaveLength(25);
  });
});
