import { randomBytes } from 'node:crypto';
import {
  API_KEY_LIMIT,
  type ApiKey,
  allOrdersDownload,
  apiKeyMessages,
  authMessages,
  type CreatedApiKey,
  GENERATOR_COUNT_MAX,
  ORDER_SEPARATOR,
  type Order,
  orderDownload,
  PROXY_FORMATS,
  type ProxyFormat,
  parseResidentialLine,
} from '@storefront/contract';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, orders, residentialAccounts, users } from '../../db/schema.ts';
import { callApi, createTestApp, jsonHeaders, type Method, signUpCustomer, type TestApp } from '../../test/test-app.ts';

const FORMATS = Object.keys(PROXY_FORMATS) as ProxyFormat[];
/** `count` endpoints `198.51.<subnet>.k:<port>:u<k>:p<k>`, k from `from`. */
const endpoints = (subnet: number, from: number, count: number, port = 8000) =>
  Array.from({ length: count }, (_, i) => `198.51.${subnet}.${from + i}:${port}:u${from + i}:p${from + i}`);

describe('personal API keys and proxy list links', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let ann: { cookie: string; id: string };
  let bob: { cookie: string; id: string };
  let annKey: CreatedApiKey;
  let bobKey: CreatedApiKey;

  const call = (method: Method, url: string, auth: { cookie?: string; key?: string }, payload?: object) =>
    callApi(t, method, url, { ...auth, payload });
  const createKey = async (cookie: string, name: string) => {
    const response = await call('POST', '/api/api-keys', { cookie }, { name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedApiKey>();
  };
  const buy = async (cookie: string, productId: string, quantity: number) => {
    const started = (await call('POST', '/api/checkout', { cookie }, { productId, quantity })).json();
    const checkoutId = String(started.checkoutUrl).split('/sandbox/checkout/')[1];
    const paid = await call('POST', `/api/sandbox/checkout/${checkoutId}/pay`, { cookie }, { card: 'ok' });
    expect(paid.statusCode, paid.body).toBe(200);
  };
  const link = (query: string) => t.app.inject({ url: `/api/proxy-list?${query}` });
  const lines = (body: string) => body.split('\n').filter((line) => line !== '');

  beforeAll(async () => {
    t = await createTestApp({
      SEED_DEMO: 'false',
      ADMIN_EMAILS: 'boss@example.com',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
      API_KEY_RATE_LIMIT_PER_MINUTE: '1000',
    });
    boss = await signUpCustomer(t, 'boss@example.com');
    ann = await signUpCustomer(t, 'ann@example.com');
    bob = await signUpCustomer(t, 'bob@example.com');
    await call('POST', '/api/admin/stocks/isp/upload', { cookie: boss.cookie }, { ips: endpoints(9, 1, 6) });
    await call('POST', '/api/admin/stocks/pk1/upload', { cookie: boss.cookie }, { ips: endpoints(1, 1, 10) });
    await buy(ann.cookie, 'isp_proxies', 3);
    await buy(ann.cookie, 'pk1_isp_proxies', 5);
    await buy(bob.cookie, 'isp_proxies', 2);
    await t.database.db
      .insert(residentialAccounts)
      .values({ userId: ann.id, username: 'res_ann', password: 'secretpw', totalKb: 1_024_000 });
    annKey = await createKey(ann.cookie, 'scraper');
    bobKey = await createKey(bob.cookie, 'bot');
  });
  afterAll(() => t.close());

  it('creates a named key shown once, keeps only its hash, lists it without the key, and revokes it', async () => {
    expect(annKey.key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    expect(annKey).toMatchObject({ name: 'scraper', start: annKey.key.slice(0, 12), lastUsedAt: null });
    const stored = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, annKey.id));
    expect(JSON.stringify(stored)).not.toContain(annKey.key.slice(12));

    const second = await createKey(ann.cookie, '  Price monitor  ');
    expect(second.name).toBe('Price monitor');
    const listed = (await call('GET', '/api/api-keys', { cookie: ann.cookie })).json<ApiKey[]>();
    expect(listed.map((key) => key.name)).toEqual(['Price monitor', 'scraper']);
    expect(JSON.stringify(listed)).not.toContain(annKey.key);
    expect(JSON.stringify(listed)).not.toContain(second.key);
    expect(Object.keys(listed[0] ?? {}).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'start']);
    // Bob's list is Bob's.
    expect((await call('GET', '/api/api-keys', { cookie: bob.cookie })).json<ApiKey[]>().map((k) => k.id)).toEqual([
      bobKey.id,
    ]);

    expect((await call('DELETE', `/api/api-keys/${second.id}`, { cookie: ann.cookie })).statusCode).toBe(204);
    const again = await call('DELETE', `/api/api-keys/${second.id}`, { cookie: ann.cookie });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(apiKeyMessages.notFound);
    expect((await call('GET', '/api/orders', { key: second.key })).statusCode).toBe(401);
  });

  it('refuses a blank or long name, and an eleventh key even when asked for at once', async () => {
    for (const name of ['', '   ']) {
      const refused = await call('POST', '/api/api-keys', { cookie: bob.cookie }, { name });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(apiKeyMessages.nameRequired);
    }
    const long = await call('POST', '/api/api-keys', { cookie: bob.cookie }, { name: 'x'.repeat(65) });
    expect(long.json().message).toBe(apiKeyMessages.nameTooLong);

    const carol = await signUpCustomer(t, 'carol@example.com');
    const attempts = await Promise.all(
      Array.from({ length: API_KEY_LIMIT + 4 }, (_, i) =>
        call('POST', '/api/api-keys', { cookie: carol.cookie }, { name: `key ${i}` }),
      ),
    );
    expect(attempts.filter((response) => response.statusCode === 201)).toHaveLength(API_KEY_LIMIT);
    const refused = attempts.filter((response) => response.statusCode === 409);
    expect(refused).toHaveLength(4);
    expect(refused[0]?.json().message).toBe(apiKeyMessages.limitReached);
    const [held] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(eq(apiKeys.userId, carol.id));
    expect(held?.n).toBe(API_KEY_LIMIT);
  });

  it("reads its own customer's orders, usage, history and processing orders, and nothing of another's", async () => {
    for (const url of [
      '/api/orders',
      '/api/orders/usage',
      '/api/orders/usage/daily',
      '/api/orders/history',
      '/api/orders/processing',
    ]) {
      const bySession = await call('GET', url, { cookie: ann.cookie });
      const byKey = await call('GET', url, { key: annKey.key });
      expect(byKey.statusCode, url).toBe(200);
      expect(byKey.json(), url).toEqual(bySession.json());
      expect(byKey.headers['cache-control']).toBe('private, no-store');
      const bobsView = await call('GET', url, { key: bobKey.key });
      expect(bobsView.json(), url).toEqual((await call('GET', url, { cookie: bob.cookie })).json());
      if (!url.endsWith('/daily') && !url.endsWith('/processing')) expect(bobsView.body, url).not.toEqual(byKey.body);
    }
    const annOrders = (await call('GET', '/api/orders', { key: annKey.key })).json<Order[]>();
    expect(annOrders.map((order) => order.proxies.length).sort()).toEqual([3, 5]);
    // Ann's key with Bob's session cookie alongside is still Ann's key: it decides whose data is read.
    const mixed = await call('GET', '/api/orders', { key: annKey.key, cookie: bob.cookie });
    expect(mixed.json()).toEqual(annOrders);

    const used = (await call('GET', '/api/api-keys', { cookie: ann.cookie })).json<ApiKey[]>();
    expect(used.find((key) => key.id === annKey.id)?.lastUsedAt).not.toBeNull();
  });

  it('is refused on admin routes, checkout, cancel, key management and account changes, and changes nothing', async () => {
    const bossKey = await createKey(boss.cookie, 'ops');
    const [order] = (await call('GET', '/api/orders', { key: annKey.key })).json<Order[]>();
    const refusals: [Method, string, object | undefined][] = [
      ['GET', '/api/admin/features', undefined],
      ['GET', '/api/admin/users', undefined],
      ['POST', '/api/admin/features', [{ featureName: 'isp_proxies', isEnabled: false }]],
      ['POST', '/api/checkout', { productId: 'isp_proxies', quantity: 1 }],
      ['POST', '/api/orders/cancel', { id: order?.id }],
      ['GET', '/api/api-keys', undefined],
      ['POST', '/api/api-keys', { name: 'made by a key' }],
      ['DELETE', `/api/api-keys/${annKey.id}`, undefined],
      ['POST', '/api/user/password', { currentPassword: 'Str0ng!pass', newPassword: 'An0ther!pass' }],
    ];
    for (const [method, url, payload] of refusals) {
      for (const key of [annKey.key, bossKey.key]) {
        const response = await call(method, url, { key }, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(401);
      }
    }
    const me = (await call('GET', '/api/user/auth', { key: annKey.key })).json();
    expect(me).toEqual({ authenticated: false, user: null });
    const session = (await call('GET', '/api/auth/get-session', { key: annKey.key })).json();
    expect(session).toBeNull();

    const [after] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, order?.id ?? ''));
    expect(after?.cancelled).toBe(false);
    expect((await call('GET', '/api/admin/features', { cookie: boss.cookie })).json()).toContainEqual({
      featureName: 'isp_proxies',
      isEnabled: true,
    });
    expect((await call('GET', '/api/api-keys', { cookie: ann.cookie })).json<ApiKey[]>()).toHaveLength(1);
    const signIn = await call(
      'POST',
      '/api/auth/sign-in/email',
      {},
      { email: 'ann@example.com', password: 'Str0ng!pass' },
    );
    expect(signIn.statusCode).toBe(200);
    const [orderCount] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(eq(orders.userId, ann.id));
    expect(orderCount?.n).toBe(2);
  });

  it("gives the list link in every format, matching the Proxies page's downloads line for line", async () => {
    const annOrders = (await call('GET', '/api/orders', { cookie: ann.cookie })).json<Order[]>();
    const isp = annOrders.find((order) => order.product_id === 'isp_proxies');
    const pk1 = annOrders.find((order) => order.product_id === 'pk1_isp_proxies');
    if (!isp || !pk1) throw new Error('the purchases were not delivered');
    for (const format of FORMATS) {
      const all = await link(`key=${annKey.key}&format=${encodeURIComponent(format)}`);
      expect(all.statusCode).toBe(200);
      expect(all.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(all.headers['cache-control']).toBe('private, no-store');
      const download = allOrdersDownload(annOrders, format).content.split('\n');
      expect(lines(all.body)).toEqual(download.filter((line) => line !== ORDER_SEPARATOR));
      for (const order of [isp, pk1]) {
        const one = await link(`key=${annKey.key}&product=${order.product_id}&format=${encodeURIComponent(format)}`);
        expect(one.body).toBe(`${orderDownload(order, format).content}\n`);
      }
    }
    // The default format is the stored one; a signed-in browser opens the link without a key; Bob's key is Bob's list.
    expect(lines((await link(`key=${annKey.key}&product=isp_proxies`)).body)).toEqual(isp.proxies);
    const bySession = await t.app.inject({
      url: '/api/proxy-list?product=isp_proxies',
      headers: { cookie: ann.cookie },
    });
    expect(lines(bySession.body)).toEqual(isp.proxies);
    const bobs = lines((await link(`key=${bobKey.key}`)).body);
    expect(bobs).toHaveLength(2);
    for (const line of bobs) expect([...isp.proxies, ...pk1.proxies]).not.toContain(line);
    const byHeader = await call('GET', '/api/proxy-list?product=pk1_isp_proxies', { key: annKey.key });
    expect(lines(byHeader.body)).toEqual(pk1.proxies);
    // Bob has no PK1 and no residential data: an empty list, not an error.
    expect((await link(`key=${bobKey.key}&product=pk1_isp_proxies`)).body).toBe('');
    expect((await link(`key=${bobKey.key}&product=residential_proxies`)).body).toBe('');
  });

  it('generates residential lines with the asked country, type and count, each with its own session', async () => {
    const response = await link(`key=${annKey.key}&product=residential_proxies&country=de&type=static&count=25`);
    const generated = lines(response.body);
    expect(generated).toHaveLength(25);
    const parsed = generated.map(parseResidentialLine);
    for (const line of parsed) {
      expect(line).toMatchObject({
        endpoint: t.config.gatewayEndpoint,
        username: 'res_ann',
        password: 'secretpw',
        country: 'DE',
        type: 'static',
      });
    }
    expect(new Set(parsed.map((line) => line?.sessionId)).size).toBe(25);
    const defaults = lines((await link(`key=${annKey.key}&product=residential_proxies`)).body);
    expect(defaults).toHaveLength(2500);
    expect(parseResidentialLine(defaults[0] ?? '')).toMatchObject({ country: 'US', type: 'dynamic' });
    const http = lines(
      (await link(`key=${annKey.key}&product=residential_proxies&count=1&format=http://user:pass@ip:port`)).body,
    );
    expect(http[0]).toMatch(/^http:\/\/res_ann-country-us-session-[a-z0-9]{8}-duration-60:secretpw@localhost:\d+$/);
  });

  it('answers a bad link with a 400 in words, and a missing or wrong key with a 401', async () => {
    const bad: [string, string][] = [
      ['product=datacenter', 'product must be one of isp_proxies, pk1_isp_proxies, residential_proxies.'],
      ['format=csv', 'format must be one of'],
      ['product=residential_proxies&count=0', `count must be a whole number from 1 to ${GENERATOR_COUNT_MAX}.`],
      ['product=residential_proxies&count=10001', 'count must be a whole number'],
      ['product=residential_proxies&count=abc', 'count must be a whole number'],
      ['product=residential_proxies&country=XX', 'country must be a two-letter country code, such as US.'],
      ['product=residential_proxies&type=sticky', 'type must be dynamic or static.'],
    ];
    for (const [query, message] of bad) {
      const response = await link(`key=${annKey.key}&${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toContain(message);
    }
    const missing = await link('product=isp_proxies');
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toBe(apiKeyMessages.keyRequired);
    const twice = await link(`key=${annKey.key}&key=other`);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe(apiKeyMessages.oneKey);
    for (const key of ['psk_nope', `psk_${randomBytes(32).toString('base64url')}`, 'sk_live_abc', 'x'.repeat(5000)]) {
      const wrong = await link(`key=${encodeURIComponent(key)}`);
      expect(wrong.statusCode, key.slice(0, 10)).toBe(401);
    }
    const wrongBearer = await call('GET', '/api/orders', { key: `psk_${randomBytes(32).toString('base64url')}` });
    expect(wrongBearer.statusCode).toBe(401);
    expect(wrongBearer.json().message).toBe(apiKeyMessages.invalidKey);
    // The key in the query string is only for the link: the JSON reads take it as a bearer token.
    const inQuery = await t.app.inject({ url: `/api/orders?key=${annKey.key}` });
    expect(inQuery.statusCode).toBe(401);
    expect(inQuery.json().message).toBe(authMessages.authRequired);
  });

  it('shows a subnet swap in the link at once', async () => {
    const before = lines((await link(`key=${annKey.key}&product=pk1_isp_proxies`)).body);
    expect(before.every((line) => line.startsWith('198.51.1.'))).toBe(true);
    const swapped = await call(
      'POST',
      '/api/admin/ips/pk1/subnets/swap',
      { cookie: boss.cookie },
      { subnet: '198.51.1.0/24', newEndpoints: endpoints(7, 1, 10, 7000) },
    );
    expect(swapped.statusCode, swapped.body).toBe(200);
    const after = lines((await link(`key=${annKey.key}&product=pk1_isp_proxies`)).body);
    expect(after).toHaveLength(before.length);
    expect(after).toEqual(before.map((line) => line.replace('198.51.1.', '198.51.7.').replace(':8000:', ':7000:')));
  });

  it('stops a revoked key and a banned customer from the next request on', async () => {
    const spare = await createKey(bob.cookie, 'spare');
    expect((await link(`key=${spare.key}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/api-keys/${spare.id}`, { cookie: bob.cookie })).statusCode).toBe(204);
    const revoked = await link(`key=${spare.key}`);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().message).toBe(apiKeyMessages.invalidKey);
    expect((await call('GET', '/api/orders', { key: spare.key })).statusCode).toBe(401);
    // Another customer cannot revoke Ann's key.
    expect((await call('DELETE', `/api/api-keys/${annKey.id}`, { cookie: bob.cookie })).statusCode).toBe(404);
    expect((await link(`key=${annKey.key}`)).statusCode).toBe(200);

    await t.database.db.update(users).set({ banned: true }).where(eq(users.id, bob.id));
    expect((await link(`key=${bobKey.key}`)).statusCode).toBe(401);
    await t.database.db.update(users).set({ banned: false }).where(eq(users.id, bob.id));
    expect((await link(`key=${bobKey.key}`)).statusCode).toBe(200);
  });

  it('reads a ban with an end as the gateway and sessions do: refused while it runs, let through once it ended', async () => {
    const ban = (banExpires: Date) =>
      t.database.db.update(users).set({ banned: true, banExpires }).where(eq(users.id, bob.id));
    await ban(new Date(Date.now() + 60 * 60_000));
    expect((await link(`key=${bobKey.key}`)).statusCode).toBe(401);
    expect((await call('GET', '/api/orders', { key: bobKey.key })).statusCode).toBe(401);
    await ban(new Date(Date.now() - 1000));
    expect((await link(`key=${bobKey.key}`)).statusCode).toBe(200);
    expect((await call('GET', '/api/orders', { key: bobKey.key })).statusCode).toBe(200);
    await t.database.db.update(users).set({ banned: false, banExpires: null }).where(eq(users.id, bob.id));
  });

  it('refuses a key created with the session cookie from another site, whatever Authorization header rides along', async () => {
    for (const authorization of ['Basic Ym9iOnB3', 'Bearer not-a-session', `Bearer ${annKey.key}`]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/api-keys',
        headers: {
          'content-type': 'application/json',
          origin: 'https://evil.example',
          cookie: bob.cookie,
          authorization,
        },
        payload: { name: 'planted' },
      });
      // Refused either way: 403 when the cookie's session was found, 401 when the bogus bearer hid it.
      expect([401, 403], `${authorization}: ${response.body}`).toContain(response.statusCode);
    }
    const listed = (await call('GET', '/api/api-keys', { cookie: bob.cookie })).json<ApiKey[]>();
    expect(listed.map((key) => key.name)).not.toContain('planted');
  });
});

describe('the rate limit of a key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: 'false', API_KEY_RATE_LIMIT_PER_MINUTE: '3', AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limit, for that key only', async () => {
    const dee = await signUpCustomer(t, 'dee@example.com');
    const create = async () =>
      (await callApi(t, 'POST', '/api/api-keys', { cookie: dee.cookie, payload: { name: 'k' } })).json<CreatedApiKey>();
    const [first, second] = [await create(), await create()];
    const read = (key: string) => callApi(t, 'GET', '/api/orders', { key });
    for (let i = 0; i < 3; i++) expect((await read(first.key)).statusCode).toBe(200);
    const limited = await read(first.key);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(/^Too many attempts\. Please wait 1 minute/);
    expect((await t.app.inject({ url: `/api/proxy-list?key=${first.key}` })).statusCode).toBe(429);
    expect((await read(second.key)).statusCode).toBe(200);
    // The signed-in session is not counted against the key.
    expect((await t.app.inject({ url: '/api/orders', headers: { cookie: dee.cookie } })).statusCode).toBe(200);
    // Every read a key may make counts: the proxy users' too.
    const third = await create();
    const proxyUsers = () => callApi(t, 'GET', '/api/proxy-users', { key: third.key });
    for (let i = 0; i < 3; i++) expect((await proxyUsers()).statusCode).toBe(200);
    expect((await proxyUsers()).statusCode).toBe(429);
  });
});

// Two instances on one PostgreSQL and one Redis, as in production: a key's requests are counted together.
const redisUrl = process.env.TEST_REDIS_URL;
describe.runIf(redisUrl && process.env.TEST_DB === 'postgres')('the rate limit of a key across instances', () => {
  const prefix = `storefront-test-${randomBytes(6).toString('hex')}:`;
  const env = {
    REDIS_URL: redisUrl ?? '',
    REDIS_KEY_PREFIX: prefix,
    API_KEY_RATE_LIMIT_PER_MINUTE: '4',
    SEED_DEMO: 'false',
  };
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp(env);
    const databaseUrl = first.config.database.kind === 'postgres' ? first.config.database.connectionString : '';
    second = await createTestApp({ ...env, DATABASE_URL: databaseUrl });
  });
  afterAll(async () => {
    const redis = new Redis(redisUrl ?? '');
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await second.close();
    await first.close();
  });

  it('counts the requests made on both instances together', async () => {
    const eve = await signUpCustomer(first, 'eve@example.com');
    const created = await first.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...jsonHeaders, cookie: eve.cookie },
      payload: { name: 'bot' },
    });
    const { key } = created.json<CreatedApiKey>();
    const statuses: number[] = [];
    for (const instance of [first, second, first, second, first]) {
      statuses.push((await instance.app.inject({ url: `/api/proxy-list?key=${key}` })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
