import { authMessages } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, proxyIps, residentialAccounts } from '../../db/schema.ts';
import { createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';

describe('orders API', () => {
  let t: TestApp;
  const cookies: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
    for (const name of ['ann', 'bob']) {
      const customer = await signUpCustomer(t, `${name}@example.com`);
      cookies[name] = customer.cookie;
      ids[name] = customer.id;
    }
  });
  afterAll(() => t.close());

  it('answers 401 with the spec message without a session', async () => {
    for (const url of ['/api/orders', '/api/orders/usage']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: authMessages.authRequired });
    }
  });

  it('lists nothing for a new customer', async () => {
    expect((await t.app.inject({ url: '/api/orders', headers: { cookie: cookies.ann } })).json()).toEqual([]);
    expect((await t.app.inject({ url: '/api/orders/usage', headers: { cookie: cookies.ann } })).json()).toEqual([]);
  });

  it("shows a customer only their own paid orders, with their proxies, and never another customer's", async () => {
    const db = t.database.db;
    const purchasedAt = new Date('2026-11-01T00:00:00Z');
    const [delivered] = await db
      .insert(orders)
      .values({
        userId: ids.ann ?? '',
        productId: 'isp_proxies',
        quantity: 2,
        status: 'delivered',
        purchasedAt,
        expiresAt: new Date('2026-12-01T00:00:00Z'),
      })
      .returning();
    await db.insert(orders).values({ userId: ids.ann ?? '', productId: 'isp_proxies', quantity: 5 });
    await db.insert(orders).values({
      userId: ids.bob ?? '',
      productId: 'pk1_isp_proxies',
      quantity: 5,
      status: 'processing',
      purchasedAt,
    });
    const free = await db.select().from(proxyIps).where(eq(proxyIps.productId, 'isp_proxies')).limit(2);
    for (const ip of free)
      await db.update(proxyIps).set({ assignedOrderId: delivered?.id }).where(eq(proxyIps.id, ip.id));

    const ann = (await t.app.inject({ url: '/api/orders', headers: { cookie: cookies.ann } })).json();
    expect(ann).toHaveLength(1);
    expect(ann[0]).toMatchObject({
      id: delivered?.id,
      product_id: 'isp_proxies',
      purchase_time: '2026-11-01T00:00:00.000Z',
      expiration_time: '2026-12-01T00:00:00.000Z',
      processing: false,
      cancelled: false,
      payment_failed: false,
    });
    expect(ann[0].proxies.sort()).toEqual(free.map((ip) => ip.endpoint).sort());

    const bob = (await t.app.inject({ url: '/api/orders', headers: { cookie: cookies.bob } })).json();
    expect(bob).toHaveLength(1);
    expect(bob[0]).toMatchObject({ product_id: 'pk1_isp_proxies', processing: true, proxies: [] });
  });

  it('gives the residential account with the gateway endpoint', async () => {
    await t.database.db.insert(residentialAccounts).values({
      userId: ids.bob ?? '',
      username: 'res-bob',
      password: 'secret',
      totalKb: 2_048_000,
      usedKb: 1000,
    });
    const usage = (await t.app.inject({ url: '/api/orders/usage', headers: { cookie: cookies.bob } })).json();
    expect(usage).toEqual([
      { usedInKb: 1000, totalInKb: 2_048_000, endpoint: 'localhost:8080', username: 'res-bob', password: 'secret' },
    ]);
    expect((await t.app.inject({ url: '/api/orders/usage', headers: { cookie: cookies.ann } })).json()).toEqual([]);
  });
});
