import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmationLinkOf, cookieOf, createTestApp, type TestApp } from '../test/test-app.ts';

/**
 * A real server (listening on a port, reached over HTTP) with its info log captured: a whole flow of sign-up,
 * confirmation, password reset and a sandbox purchase, then the log is searched for every secret the flow handled.
 */
describe('the log of a full flow', () => {
  let t: TestApp;
  let base: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const log = new PassThrough();
    log.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    t = await createTestApp({ APP_URL: 'http://localhost:3000' }, { log });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => t.close());

  const post = (path: string, body: object, cookie = '') =>
    fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie },
      body: JSON.stringify(body),
      redirect: 'manual',
    });
  const get = (path: string, cookie = '') => fetch(base + path, { headers: { cookie }, redirect: 'manual' });

  it('holds no reset or confirmation token, no invoice id and no API key', async () => {
    const email = 'logged@example.com';
    expect((await post('/api/auth/sign-up/email', { email, password: 'Str0ng!pass', name: 'Lou' })).status).toBe(200);
    const confirmation = await confirmationLinkOf(t, email);
    const landing = await get(confirmation);
    expect(landing.status).toBe(303);
    const token = new URL(landing.headers.get('location') ?? '', base).searchParams.get('token') ?? '';
    const confirmed = await post('/api/auth/confirm-email', { token, password: 'Str0ng!pass' });
    expect(confirmed.status).toBe(200);
    const cookie = cookieOf(confirmed.headers.getSetCookie());

    expect((await post('/api/auth/request-password-reset', { email, redirectTo: '/reset-password' })).status).toBe(200);
    await t.mailsSettled();
    const resetMail = t.mails.findLast((mail) => mail.to === email && /reset/i.test(mail.subject));
    const resetLink = new URL(/(http\S+reset-password\S+)/.exec(resetMail?.text ?? '')?.[1] ?? '');
    const followed = await get(resetLink.pathname + resetLink.search);
    const location = new URL(followed.headers.get('location') ?? '', base);
    const resetToken = location.searchParams.get('token') ?? '';
    expect(resetToken).not.toBe('');
    await get(location.pathname + location.search);
    expect((await post('/api/auth/reset-password', { token: resetToken, newPassword: 'N3wpass!' })).status).toBe(200);

    const signedIn = await post('/api/auth/sign-in/email', { email, password: 'N3wpass!' });
    const session = cookieOf(signedIn.headers.getSetCookie()) || cookie;
    const started = (await (
      await post('/api/checkout', { productId: 'isp_proxies', quantity: 1 }, session)
    ).json()) as {
      checkoutUrl: string;
    };
    const checkoutId = started.checkoutUrl.split('/sandbox/checkout/')[1] ?? '';
    expect((await post(`/api/sandbox/checkout/${checkoutId}/pay`, { card: 'ok' }, session)).status).toBe(200);
    const [paid] = (await (await get('/api/orders/history', session)).json()) as { stripe_id: string }[];
    const invoiceId = paid?.stripe_id ?? '';
    expect(invoiceId).toMatch(/^in_sandbox_/);
    expect((await get(`/api/sandbox/invoices/${invoiceId}`)).status).toBe(200);
    await get(`/sandbox/invoices/${invoiceId}`);

    // A personal API key, used in the link and as a bearer, then revoked and tried again (the 401 is logged too).
    const created = (await (await post('/api/api-keys', { name: 'scraper' }, session)).json()) as {
      id: string;
      key: string;
    };
    const apiKey = created.key;
    expect((await get(`/api/proxy-list?key=${apiKey}&product=isp_proxies`)).status).toBe(200);
    expect((await fetch(`${base}/api/orders`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
    // The server reads a percent-encoded name as `key`: the log must too.
    expect((await get(`/api/proxy-list?ke%79=${apiKey}&product=isp_proxies`)).status).toBe(200);
    expect((await get(`/api/proxy-list?%6Bey=${apiKey}`)).status).toBe(200);
    await get(`/api/orders?anything=${apiKey}`);
    const revoked = await fetch(`${base}/api/api-keys/${created.id}`, {
      method: 'DELETE',
      headers: { cookie: session, origin: 'http://localhost:3000' },
    });
    expect(revoked.status).toBe(204);
    expect((await get(`/api/proxy-list?format=ip:port:user:pass&key=${apiKey}`)).status).toBe(401);

    const confirmationToken = new URL(confirmation, base).searchParams.get('token') ?? '';
    const resetPathToken = resetLink.pathname.split('/').at(-1) ?? '';
    const secrets = { confirmationToken, resetPathToken, resetToken, invoiceId, apiKey, keyBody: apiKey.slice(4) };
    const log = lines.join('\n');
    expect(lines.filter((line) => line.includes('"req"')).length).toBeGreaterThan(10);
    expect(log).toContain('/api/auth/reset-password/[redacted]');
    expect(log).toContain('/api/proxy-list?format=ip:port:user:pass&key=[redacted]');
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(10);
      expect(log.includes(secret), `${name} is in the log`).toBe(false);
    }
    for (const line of lines) expect(line).not.toMatch(/session_token|Str0ng!pass|N3wpass!/);
  });
});
