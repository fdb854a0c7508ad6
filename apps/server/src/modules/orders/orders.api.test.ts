import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { authMessages } from '@storefront/contract';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, proxyIps, residentialAccounts } from '../../db/schema.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';

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

  describe('processing and cancel', () => {
    const cancel = (cookie: string | undefined, id: unknown) =>
      callApi(t, 'POST', '/api/orders/cancel', { cookie, payload: { id } });
    const paidOrder = async (userId: string, values: Partial<typeof orders.$inferInsert>) => {
      const [row] = await t.database.db
        .insert(orders)
        .values({
          userId,
          productId: 'isp_proxies',
          quantity: 5,
          status: 'delivered',
          purchasedAt: new Date(),
          expiresAt: new Date(Date.now() + 86_400_000),
          ...values,
        })
        .returning();
      return row?.id ?? '';
    };

    it('lists waiting residential orders only', async () => {
      const waiting = await paidOrder(ids.ann ?? '', {
        productId: 'residential_proxies',
        quantity: 7,
        status: 'processing',
        expiresAt: null,
      });
      await paidOrder(ids.ann ?? '', { productId: 'isp_proxies', status: 'processing' });
      const list = (await t.app.inject({ url: '/api/orders/processing', headers: { cookie: cookies.ann } })).json();
      expect(list).toEqual([{ id: waiting, quantity: 7, createdAt: expect.any(String) }]);
      expect((await t.app.inject({ url: '/api/orders/processing', headers: { cookie: cookies.bob } })).json()).toEqual(
        [],
      );
      expect((await t.app.inject({ url: '/api/orders/processing' })).statusCode).toBe(401);
    });

    it('cancels at period end, once, and answers the whole list', async () => {
      const id = await paidOrder(ids.ann ?? '', {});
      const response = await cancel(cookies.ann, id);
      expect(response.statusCode).toBe(200);
      const list = response.json();
      expect(list.find((order: { id: string }) => order.id === id)).toMatchObject({ cancelled: true });
      expect(list.length).toBeGreaterThan(1);

      const again = await cancel(cookies.ann, id);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/already cancelled/);
    });

    it("answers 404 for another customer's order, 400 for a malformed id, 409 for expired or residential", async () => {
      const bobs = await paidOrder(ids.bob ?? '', {});
      expect((await cancel(cookies.ann, bobs)).statusCode).toBe(404);
      expect((await cancel(cookies.ann, bobs)).json()).toEqual({ message: 'Order not found' });
      const [stillActive] = await t.database.db.select().from(orders).where(eq(orders.id, bobs));
      expect(stillActive?.cancelled).toBe(false);

      for (const bad of ['not-a-uuid', "1' or '1'='1", 42]) {
        const response = await cancel(cookies.ann, bad);
        expect(response.statusCode).toBe(400);
      }
      const expired = await paidOrder(ids.ann ?? '', { expiresAt: new Date(Date.now() - 1000) });
      expect((await cancel(cookies.ann, expired)).json()).toEqual({ message: 'This order has already expired.' });
      const residential = await paidOrder(ids.ann ?? '', { productId: 'residential_proxies', expiresAt: null });
      expect((await cancel(cookies.ann, residential)).statusCode).toBe(409);
      const unpaid = await paidOrder(ids.ann ?? '', { status: 'awaiting_payment' });
      expect((await cancel(cookies.ann, unpaid)).statusCode).toBe(404);
      expect((await cancel(undefined, bobs)).statusCode).toBe(401);
    });
  });

  it('sends a large list compressed to a client that accepts it, and as it is to one that does not', async () => {
    const db = t.database.db;
    const [order] = await db
      .insert(orders)
      .values({
        userId: ids.bob ?? '',
        productId: 'pk1_isp_proxies',
        quantity: 60,
        status: 'delivered',
        purchasedAt: new Date(),
      })
      .returning();
    await db.insert(proxyIps).values(
      Array.from({ length: 60 }, (_, k) => ({
        productId: 'pk1_isp_proxies' as const,
        ip: `198.51.100.${k + 1}`,
        port: 9100,
        username: 'user',
        password: 'secret',
        endpoint: `198.51.100.${k + 1}:9100:user:secret`,
        subnet: '198.51.100.0/24',
        assignedOrderId: order?.id,
      })),
    );
    const read = (encoding?: string) =>
      t.app.inject({
        url: '/api/orders',
        headers: { cookie: cookies.bob, ...(encoding && { 'accept-encoding': encoding }) },
      });
    const plain = await read();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const list = plain.json();
    expect(list.find((entry: { id: string }) => entry.id === order?.id).proxies).toHaveLength(60);
    for (const [encoding, decode] of [
      ['gzip, deflate, br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const compressed = await read(encoding);
      expect(compressed.headers['content-encoding']).toBe(encoding === 'gzip' ? 'gzip' : 'br');
      expect(compressed.headers.vary).toContain('accept-encoding');
      expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(decode(compressed.rawPayload).toString())).toEqual(list);
    }
    expect((await read('identity')).headers['content-encoding']).toBeUndefined();
  });

  it("never answers a kept endpoint list after a change of the order's IPs, whatever statement made it", async () => {
    const db = t.database.db;
    const userId = ids.ann ?? '';
    const [order] = await db
      .insert(orders)
      .values({ userId, productId: 'pk1_isp_proxies', quantity: 3, status: 'delivered', purchasedAt: new Date() })
      .returning();
    const orderId = order?.id ?? '';
    // Each version (ETag) the answers carry stands for one answer only; a client sending it back gets 304 while current.
    const answerOfVersion = new Map<string, string>();
    const proxiesOf = async () => {
      const plain = await t.app.inject({ url: '/api/orders', headers: { cookie: cookies.ann } });
      const list = plain.json();
      // Weak: the same version goes out plain, br or gzip.
      const etag = String(plain.headers.etag);
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect(answerOfVersion.get(etag) ?? plain.body).toBe(plain.body);
      answerOfVersion.set(etag, plain.body);
      const again = await t.app.inject({
        url: '/api/orders',
        headers: { cookie: cookies.ann, 'if-none-match': `"other", ${etag}` },
      });
      expect([again.statusCode, again.body, again.headers.etag]).toEqual([304, '', etag]);
      // No body, so nothing said of one (a 304 names no type, and no length other than the 200's).
      expect(again.headers['content-type']).toBeUndefined();
      // The compressed answer (kept, and compressed once, while unchanged) says the same after every change.
      const compressed = await t.app.inject({
        url: '/api/orders',
        headers: { cookie: cookies.ann, 'accept-encoding': 'br' },
      });
      const decoded =
        compressed.headers['content-encoding'] === 'br'
          ? JSON.parse(brotliDecompressSync(compressed.rawPayload).toString())
          : compressed.json();
      expect(decoded).toEqual(list);
      return list.find((entry: { id: string }) => entry.id === orderId).proxies as string[];
    };
    const versionOf = async () =>
      (await db.select({ v: orders.proxiesVersion }).from(orders).where(eq(orders.id, orderId)))[0]?.v;
    const ip = (k: number) => ({
      productId: 'pk1_isp_proxies' as const,
      ip: `203.0.113.${k}`,
      port: 9000,
      username: 'u',
      password: 'p',
      endpoint: `203.0.113.${k}:9000:u:p`,
      subnet: '203.0.113.0/24',
    });
    expect(await proxiesOf()).toEqual([]);
    // Inserted already assigned (one statement, one version), read twice (the second from the cache).
    const before = await versionOf();
    await db.insert(proxyIps).values([10, 2, 1].map((k) => ({ ...ip(k), assignedOrderId: orderId })));
    expect(await versionOf()).toBe((before ?? 0) + 1);
    const three = ['203.0.113.1:9000:u:p', '203.0.113.2:9000:u:p', '203.0.113.10:9000:u:p'];
    expect(await proxiesOf()).toEqual(three);
    expect(await proxiesOf()).toEqual(three);
    // An endpoint rewritten in place (as a swap does).
    await db
      .update(proxyIps)
      .set({ endpoint: '203.0.113.2:9000:u:new' })
      .where(eq(proxyIps.endpoint, '203.0.113.2:9000:u:p'));
    expect(await proxiesOf()).toEqual(['203.0.113.1:9000:u:p', '203.0.113.2:9000:u:new', '203.0.113.10:9000:u:p']);
    // A change that does not touch the list (the burnt flag) keeps the version.
    const kept = await versionOf();
    await db.update(proxyIps).set({ needRotated: true }).where(eq(proxyIps.assignedOrderId, orderId));
    expect(await versionOf()).toBe(kept);
    // Moved to another order in one statement: both orders' versions rise, once each.
    const [other] = await db
      .insert(orders)
      .values({ userId, productId: 'pk1_isp_proxies', quantity: 1, status: 'delivered', purchasedAt: new Date() })
      .returning();
    const otherVersion = async () =>
      (
        await db
          .select({ v: orders.proxiesVersion })
          .from(orders)
          .where(eq(orders.id, other?.id ?? ''))
      )[0]?.v;
    const [ownBefore, otherBefore] = [await versionOf(), await otherVersion()];
    await db
      .update(proxyIps)
      .set({ assignedOrderId: other?.id })
      .where(inArray(proxyIps.endpoint, ['203.0.113.10:9000:u:p', '203.0.113.1:9000:u:p']));
    expect([await versionOf(), await otherVersion()]).toEqual([(ownBefore ?? 0) + 1, (otherBefore ?? 0) + 1]);
    expect(await proxiesOf()).toEqual(['203.0.113.2:9000:u:new']);
    await db
      .update(proxyIps)
      .set({ assignedOrderId: orderId })
      .where(eq(proxyIps.assignedOrderId, other?.id ?? ''));
    // Released (as an expiry does), then deleted.
    await db.update(proxyIps).set({ assignedOrderId: null }).where(eq(proxyIps.ip, '203.0.113.10'));
    expect(await proxiesOf()).toEqual(['203.0.113.1:9000:u:p', '203.0.113.2:9000:u:new']);
    await db.delete(proxyIps).where(eq(proxyIps.ip, '203.0.113.1'));
    expect(await proxiesOf()).toEqual(['203.0.113.2:9000:u:new']);
    // A change of the order itself (cancelled at the end of its cycle) is a new version too.
    await db.update(orders).set({ cancelled: true }).where(eq(orders.id, orderId));
    const cancelled = await t.app.inject({ url: '/api/orders', headers: { cookie: cookies.ann } });
    expect(answerOfVersion.has(String(cancelled.headers.etag))).toBe(false);
    expect(answerOfVersion.size).toBeGreaterThanOrEqual(5);
  });
});
