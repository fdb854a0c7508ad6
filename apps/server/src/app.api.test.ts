import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from './app.ts';
import { API_DOCS_CSP } from './plugins/api-docs.ts';
import { brokenTextMessage, nulMessage, tooDeepMessage } from './plugins/json-body.ts';
import { createTestApp, signUpCustomer, type TestApp } from './test/test-app.ts';

describe('app shell', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives a request a minute to arrive, so a trickled body holds no connection for ever', () => {
    expect(t.app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(REQUEST_TIMEOUT_MS).toBeLessThanOrEqual(60_000);
  });

  it('GET /api/health checks the database', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('unknown API paths answer 404 JSON with a message', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found: GET /api/no-such-thing' });
  });

  it('malformed JSON answers 400 with a readable message and no stack trace', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pricing',
      headers: { 'content-type': 'application/json' },
      payload: '{"oops":',
    });
    expect([400, 404]).toContain(response.statusCode);
    const body = response.json();
    expect(typeof body.message).toBe('string');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses a NUL character in a body, a query or a path with a 400 in words (PostgreSQL cannot hold it)', async () => {
    const answers = [
      await t.app.inject({ url: '/api/pricing?currency=a%00b' }),
      await t.app.inject({ url: '/api/sandbox/invoices/in_%00' }),
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
        payload: JSON.stringify({ email: 'a\u0000@example.com', password: 'x' }),
      }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ message: nulMessage });
    }
    // A route with its own error shape answers in it (the fuzzer found a 500 here: the shape did not fit its schema).
    const customer = await signUpCustomer(t, 'nul@example.com');
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/checkout?a%00b',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie: customer.cookie },
      payload: { productId: 'isp_proxies', quantity: 5 },
    });
    expect(checkout.statusCode).toBe(400);
    expect(checkout.json()).toEqual({ success: false, error: { message: nulMessage } });
  });

  it('refuses text with an unpaired surrogate with a 400 in words instead of storing U+FFFD in its place', async () => {
    const { cookie } = await signUpCustomer(t, 'surrogate@example.com');
    const headers = { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie };
    for (const [url, payload] of [
      ['/api/api-keys', '{"name":"k\\udfff"}'],
      ['/api/auth/update-user', '{"name":"Al\\ud800ice"}'],
    ] as const) {
      const answer = await t.app.inject({ method: 'POST', url, headers, payload });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json(), url).toEqual({ message: brokenTextMessage });
    }
    // A pair (an emoji written as two escapes) is text like any other.
    const emoji = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers,
      payload: '{"name":"k \\ud83d\\ude00"}',
    });
    expect(emoji.statusCode).toBe(201);
  });

  it('refuses JSON nested 5,000 levels deep with a 400, on the auth routes and everywhere else', async () => {
    const deep = `{"email":${'['.repeat(5000)}${']'.repeat(5000)},"password":"x"}`;
    // A visitor is refused before the body is read; a customer's body is read, and refused.
    const { cookie } = await signUpCustomer(t, 'deep@example.com');
    for (const url of ['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/checkout', '/api/user/password']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie },
        payload: deep,
      });
      expect(response.statusCode, url).toBe(400);
      const body = response.json();
      // Checkout answers in the spec's { success, error: { message } } shape.
      expect(body.message ?? body.error?.message, url).toBe(tooDeepMessage);
    }
    // 32 levels still parse (and are then judged by the route's own rules).
    const fine = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      payload: `{"email":"a@example.com","password":"x","extra":${'['.repeat(31)}${']'.repeat(31)}}`,
    });
    expect(fine.statusCode).toBe(401);
  });

  it('sends security headers with a Content-Security-Policy', async () => {
    // One policy for pages and API answers alike.
    const response = await t.app.inject({ method: 'GET', url: '/api/pricing' });
    const page = await t.app.inject({ method: 'GET', url: '/privacy' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    // Plain HTTP (APP_URL http://localhost:3000): no HSTS, which browsers ignore there anyway.
    expect(response.headers['strict-transport-security']).toBeUndefined();
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.headers['content-security-policy']).toBe(API_DOCS_CSP);
    expect(docs.headers['content-security-policy']).not.toMatch(/https:|swagger\.io|frame-ancestors 'self'/);
  });

  it('sends HSTS when the shop is served over HTTPS', async () => {
    const secure = await createTestApp({ APP_URL: 'https://shop.example.com' });
    try {
      const response = await secure.app.inject({ method: 'GET', url: '/api/pricing' });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await secure.close();
    }
  });

  it('compresses answers over 1 KB for clients that accept it, and only those', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const brotli = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gzip = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    // Small answers are not worth it.
    const small = await t.app.inject({ method: 'GET', url: '/api/pricing', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('publishes the OpenAPI document and the reference page at /api/docs', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(Object.keys(doc.json().paths)).toEqual(
      expect.arrayContaining(['/api/pricing', '/api/features', '/api/health']),
    );
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('page paths without a build answer 503 saying how to build', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/terms' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build');
  });
});
