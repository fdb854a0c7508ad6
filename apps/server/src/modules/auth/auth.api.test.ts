import { authMessages } from '@storefront/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const ORIGIN = 'http://localhost:3000';
const json = { 'content-type': 'application/json', origin: ORIGIN };

/** The session cookie(s) of a better-auth answer, as a Cookie header. */
function cookieOf(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}

describe('accounts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ADMIN_EMAILS: 'boss@example.com',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      AUTH_RATE_LIMIT_PER_EMAIL: '1000',
    });
  });
  afterAll(() => t.close());

  const signUp = (email: string, password = 'Str0ng!pass') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: json,
      payload: { email, password, name: email, callbackURL: '/auth/callback' },
    });
  const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { ...json, ...headers },
      payload: { email, password },
    });

  it('signs up, sends a confirmation link to /auth/callback, and knows the user by cookie and by bearer token', async () => {
    const response = await signUp('ann@example.com');
    expect(response.statusCode).toBe(200);
    const cookie = cookieOf(response.headers['set-cookie']);
    expect(cookie).toContain('storefront.session_token=');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const mail = t.mails.find((m) => m.to === 'ann@example.com');
    expect(mail?.subject).toMatch(/Confirm your e-mail/);
    expect(mail?.text).toMatch(/\/api\/auth\/verify-email\?token=[^\s]+callbackURL=%2Fauth%2Fcallback/);
    expect(mail?.html).toContain('Confirm e-mail address');

    const byCookie = await t.app.inject({ method: 'GET', url: '/api/user/auth', headers: { cookie } });
    expect(byCookie.json()).toMatchObject({
      authenticated: true,
      user: { email: 'ann@example.com', role: 'user', emailVerified: false },
    });

    const token = response.headers['set-auth-token'];
    expect(typeof token).toBe('string');
    const byBearer = await t.app.inject({
      method: 'GET',
      url: '/api/user/auth',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(byBearer.json().user.email).toBe('ann@example.com');
  });

  it('confirms the e-mail address through the link and lands on /auth/callback', async () => {
    const mail = t.mails.find((m) => m.to === 'ann@example.com');
    const link = new URL(/(http\S+verify-email\S+)/.exec(mail?.text ?? '')?.[1] ?? '');
    const response = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/auth/callback');
    const cookie = cookieOf(response.headers['set-cookie']);
    const me = await t.app.inject({ method: 'GET', url: '/api/user/auth', headers: { cookie } });
    expect(me.json().user.emailVerified).toBe(true);
  });

  it('answers authenticated false without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/auth' });
    expect(response.json()).toEqual({ authenticated: false, user: null });
  });

  it('refuses a weak password at sign-up with the first broken rule, in the order of the spec', async () => {
    const cases: [string, string][] = [
      ['Ab1!', authMessages.signupPasswordTooShort],
      ['ABCDEFG1!', authMessages.needsLowercase],
      ['abcdefg1!', authMessages.needsUppercase],
      ['Abcdefgh!', authMessages.needsNumber],
      ['Abcdefgh1', authMessages.needsSpecial],
    ];
    for (const [password, message] of cases) {
      const response = await signUp(`weak-${password.length}-${message.length}@example.com`, password);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });

  it('gives the admin role to an address in ADMIN_EMAILS at sign-up', async () => {
    const response = await signUp('Boss@Example.com');
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user/auth',
      headers: { cookie: cookieOf(response.headers['set-cookie']) },
    });
    expect(me.json().user.role).toBe('admin');
  });

  it('says the same thing for a reset of a known and of an unknown address, and mails only the known one', async () => {
    const before = t.mails.length;
    const known = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: json,
      payload: { email: 'ann@example.com', redirectTo: '/reset-password' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: json,
      payload: { email: 'nobody@example.com', redirectTo: '/reset-password' },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = t.mails.slice(before);
    expect(sent.map((m) => m.to)).toEqual(['ann@example.com']);
    expect(sent[0]?.text).toMatch(/\/api\/auth\/reset-password\/\S+callbackURL=%2Freset-password/);
  });

  it('resets the password with the link, signs out every session, and the new password works', async () => {
    const mail = t.mails.findLast((m) => m.to === 'ann@example.com' && /Reset/.test(m.subject));
    const link = new URL(/(http\S+reset-password\/\S+)/.exec(mail?.text ?? '')?.[1] ?? '');
    const opened = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(opened.statusCode).toBe(302);
    const target = new URL(opened.headers.location ?? '', ORIGIN);
    expect(target.pathname).toBe('/reset-password');
    const token = target.searchParams.get('token');
    expect(token).toBeTruthy();

    const oldSession = cookieOf((await signIn('ann@example.com', 'Str0ng!pass')).headers['set-cookie']);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: json,
      payload: { newPassword: 'newpass', token },
    });
    expect(reset.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/user/auth', headers: { cookie: oldSession } });
    expect(me.json().authenticated).toBe(false);
    expect((await signIn('ann@example.com', 'Str0ng!pass')).statusCode).toBe(401);
    expect((await signIn('ann@example.com', 'newpass')).statusCode).toBe(200);
  });

  it('shows the auth service message for a wrong password', async () => {
    const response = await signIn('ann@example.com', 'wrong-password');
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('Invalid email or password');
  });

  it('changes the password from Settings and signs out the other sessions, not this one', async () => {
    const first = cookieOf((await signIn('ann@example.com', 'newpass')).headers['set-cookie']);
    const second = cookieOf((await signIn('ann@example.com', 'newpass')).headers['set-cookie']);
    const tooShort = await t.app.inject({
      method: 'POST',
      url: '/api/user/password',
      headers: { ...json, cookie: second },
      payload: { newPassword: '12345' },
    });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().message).toContain(authMessages.passwordTooShort);

    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/user/password',
      headers: { ...json, cookie: second },
      payload: { newPassword: 'another1' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/user/auth', headers: { cookie: first } })).json().authenticated).toBe(
      false,
    );
    expect((await t.app.inject({ url: '/api/user/auth', headers: { cookie: second } })).json().authenticated).toBe(
      true,
    );
    expect((await signIn('ann@example.com', 'another1')).statusCode).toBe(200);
  });

  it('refuses a cookie-carried password change from another site', async () => {
    const cookie = cookieOf((await signIn('ann@example.com', 'another1')).headers['set-cookie']);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/password',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie },
      payload: { newPassword: 'hacked1' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers 401 with the spec message on a protected route without a session', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/password',
      headers: json,
      payload: { newPassword: 'whatever1' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: authMessages.authRequired });
  });

  it('refuses a sign-in posted from another origin', async () => {
    const response = await signIn('ann@example.com', 'another1', { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
  });
});

describe('auth rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: '3', AUTH_RATE_LIMIT_PER_IP: '5' });
  });
  afterAll(() => t.close());

  const attempt = (email: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: json,
      remoteAddress: ip,
      payload: { email, password: 'whatever' },
    });

  it('limits sign-in per e-mail address whatever the IP, with a message and Retry-After', async () => {
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3'])
      expect((await attempt('target@example.com', ip)).statusCode).toBe(401);
    const blocked = await attempt('target@example.com', '10.0.0.4');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt('other@example.com', '10.0.0.4')).statusCode).toBe(401);
  });

  it('limits sign-in per IP whatever the address', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt(`user${i}@example.com`, '10.9.9.9')).statusCode).toBe(401);
    expect((await attempt('fresh@example.com', '10.9.9.9')).statusCode).toBe(429);
    expect((await attempt('fresh@example.com', '10.9.9.8')).statusCode).toBe(401);
  });

  it('limits password-reset requests too', async () => {
    const reset = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/request-password-reset',
        headers: json,
        remoteAddress: '10.5.5.5',
        payload: { email: 'spam@example.com', redirectTo: '/reset-password' },
      });
    for (let i = 0; i < 3; i++) expect((await reset()).statusCode).toBe(200);
    expect((await reset()).statusCode).toBe(429);
  });
});
