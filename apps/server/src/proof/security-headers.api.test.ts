import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, databaseFingerprint } from '../test/fingerprint.ts';
import { recordProof } from '../test/proof-results.ts';
import { authEndpoints } from '../test/route-table.ts';
import { createTestApp, signUpCustomer, type TestApp } from '../test/test-app.ts';

const webDist = path.resolve(import.meta.dirname, '../../../web/dist');
const built = existsSync(path.join(webDist, 'index.html'));
const APP_URL = 'https://shop.example.com';
const EVIL = 'https://evil.example';

/** The CSP's directives by name. */
function directives(csp: string | undefined): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name as string, values]),
  );
}

/** The headers every answer must carry, whatever it is. */
function expectCommonHeaders(label: string, headers: Record<string, unknown>) {
  const csp = directives(headers['content-security-policy'] as string | undefined);
  expect(csp.get('frame-ancestors'), `${label}: frame-ancestors`).toEqual(["'none'"]);
  const scripts = csp.get('script-src') ?? csp.get('default-src') ?? [];
  expect(scripts, `${label}: scripts`).not.toContain("'unsafe-inline'");
  expect(scripts, `${label}: scripts`).not.toContain("'unsafe-eval'");
  expect(headers['x-content-type-options'], `${label}: nosniff`).toBe('nosniff');
  expect(headers['x-frame-options'], `${label}: x-frame-options`).toBe('DENY');
  expect(headers['strict-transport-security'], `${label}: HSTS`).toBe('max-age=31536000; includeSubDomains');
  expect(headers['x-powered-by'], `${label}: x-powered-by`).toBeUndefined();
}

describe('security headers, cookies and CSRF on every kind of answer (served over HTTPS)', () => {
  let t: TestApp;
  let cookie = '';
  let setCookies: string[] = [];
  const figures = { kindsOfAnswer: 0, crossSitePosts: 0 };

  beforeAll(async () => {
    t = await createTestApp({
      APP_URL,
      ...(built && { WEB_DIST_DIR: webDist }),
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
    });
    await signUpCustomer(t, 'headers@example.com');
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin: APP_URL },
      payload: { email: 'headers@example.com', password: 'Str0ng!pass' },
    });
    expect(signIn.statusCode).toBe(200);
    setCookies = [signIn.headers['set-cookie'] ?? []].flat();
    cookie = setCookies.map((c) => c.split(';')[0]).join('; ');
  });
  afterAll(async () => {
    recordProof('security headers and CSRF', figures);
    await t?.close();
  });

  it('sends the policy headers on JSON, errors, redirects, the API reference, webhooks and (when built) pages and assets', async () => {
    const kinds: [string, () => Promise<{ headers: Record<string, unknown>; statusCode: number }>][] = [
      ['JSON read', () => t.app.inject({ url: '/api/pricing' })],
      ['JSON 401', () => t.app.inject({ url: '/api/orders' })],
      ['JSON 404', () => t.app.inject({ url: '/api/nothing-here' })],
      ['JSON 400', () => t.app.inject({ url: '/api/admin/users?email=%00' })],
      ['signed-in JSON', () => t.app.inject({ url: '/api/user/auth', headers: { cookie } })],
      ['auth redirect', () => t.app.inject({ url: '/api/auth/verify-email?token=x&callbackURL=%2F' })],
      ['auth JSON', () => t.app.inject({ url: '/api/auth/get-session', headers: { cookie } })],
      ['API reference page', () => t.app.inject({ url: '/api/docs' })],
      ['OpenAPI document', () => t.app.inject({ url: '/api/docs/json' })],
      [
        'webhook refusal',
        () =>
          t.app.inject({
            method: 'POST',
            url: '/api/webhooks/sandbox',
            payload: '{}',
            headers: { 'content-type': 'application/json' },
          }),
      ],
    ];
    if (built) {
      kinds.push(
        ['landing page', () => t.app.inject({ url: '/' })],
        ['dashboard page', () => t.app.inject({ url: '/dashboard' })],
        ['page 404', () => t.app.inject({ url: '/no-such-page' })],
      );
    }
    for (const [label, request] of kinds) {
      const answer = await request();
      expect(answer.statusCode, label).toBeLessThan(500);
      expectCommonHeaders(label, answer.headers);
      figures.kindsOfAnswer++;
    }
    if (built) {
      const page = await t.app.inject({ url: '/' });
      expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      const html = page.body;
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(asset, 'a script in the landing page').toBeDefined();
      const script = await t.app.inject({ url: asset ?? '' });
      expect(script.statusCode).toBe(200);
      expect(script.headers['x-content-type-options']).toBe('nosniff');
      expect(String(script.headers['content-type'])).toMatch(/javascript/);
      figures.kindsOfAnswer++;
      // Every inline script of a page is allowed by its hash, never by 'unsafe-inline'.
      const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/json)[^>]*>/g)];
      const scriptSrc = directives(page.headers['content-security-policy'] as string).get('script-src') ?? [];
      expect(scriptSrc.filter((value) => value.startsWith("'sha256-")).length).toBeGreaterThanOrEqual(inline.length);
    }
  });

  it('sets the session cookie HttpOnly, Secure, SameSite=Lax and host-wide, under the __Secure- prefix', () => {
    const session = setCookies.find((c) => c.includes('session_token='));
    expect(session).toBeDefined();
    expect(session).toMatch(/^__Secure-storefront\.session_token=/);
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*SameSite=Lax/i);
    expect(session).toMatch(/;\s*Path=\//i);
    expect(session).not.toMatch(/;\s*Domain=/i);
    for (const other of setCookies) {
      expect(other, other.split('=')[0]).toMatch(/;\s*HttpOnly/i);
      expect(other, other.split('=')[0]).toMatch(/;\s*Secure/i);
    }
  });

  it('refuses a cross-site form post to every state-changing route, carrying the session cookie, and nothing changes', async () => {
    const authWrites = authEndpoints(t);
    const writes = [...t.app.routeTable.filter((route) => !route.url.startsWith('/api/auth/')), ...authWrites].filter(
      (route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method),
    );
    const problems: string[] = [];
    for (const route of writes) {
      const url = route.url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      for (const form of [
        { type: 'application/x-www-form-urlencoded', body: 'name=x&email=victim%40example.com&password=Str0ng%21pass' },
        { type: 'text/plain', body: '{"name":"x","email":"victim@example.com"}' },
        {
          type: 'multipart/form-data; boundary=x',
          body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--x--',
        },
      ]) {
        const before = await databaseFingerprint(t.database.db);
        const answer = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { cookie, origin: EVIL, referer: `${EVIL}/page`, 'content-type': form.type },
          payload: form.body,
        });
        figures.crossSitePosts++;
        const refused = answer.statusCode >= 400 && answer.statusCode < 500;
        const changed = changedTables(before, await databaseFingerprint(t.database.db));
        if (!refused || changed.length > 0) {
          problems.push(
            `${route.method} ${route.url} (${form.type}): ${answer.statusCode}, changed [${changed.join(', ')}]`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
    // And the session is still good: nothing above signed it out.
    const me = await t.app.inject({ url: '/api/user/auth', headers: { cookie } });
    expect((me.json() as { user: unknown }).user).not.toBeNull();
  });

  it('refuses a cross-site JSON write from another origin even with the session cookie', async () => {
    for (const url of [
      '/api/checkout',
      '/api/api-keys',
      '/api/user/password',
      '/api/auth/sign-out',
      '/api/auth/update-user',
    ]) {
      const answer = await t.app.inject({
        method: 'POST',
        url,
        headers: { cookie, origin: EVIL, 'content-type': 'application/json' },
        payload: { productId: 'isp_proxies', quantity: 5, name: 'x', newPassword: 'N3w!passphrase' },
      });
      expect(answer.statusCode, url).toBe(403);
    }
  });
});
