import { authMessages, confirmationMessages } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users, verifications } from '../../db/schema.ts';
import { crossSiteMessage } from '../../lib/own-site.ts';
import {
  callApi,
  confirmationLinkOf,
  confirmEmail,
  cookieOf,
  createTestApp,
  signUpCustomer,
  type TestApp,
} from '../../test/test-app.ts';
import { applyAdminEmails } from './admin-emails.ts';
import { noSuchAuthCallMessage, returnAddressMessage, SIGN_UP_ANSWER_MS } from './routes.ts';
import { RESEND_AFTER_MS, startUnconfirmedAccountOver } from './unconfirmed-accounts.ts';

const ORIGIN = 'http://localhost:3000';
const json = { 'content-type': 'application/json', origin: ORIGIN };

describe('accounts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ADMIN_EMAILS: 'boss@example.com,owner@example.com',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      AUTH_RATE_LIMIT_PER_EMAIL: '1000',
    });
  });
  afterAll(() => t.close());

  const signUp = (email: string, password = 'Str0ng!pass') =>
    callApi(t, 'POST', '/api/auth/sign-up/email', {
      payload: { email, password, name: email, callbackURL: '/auth/callback' },
    });
  const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
    callApi(t, 'POST', '/api/auth/sign-in/email', { headers, payload: { email, password } });

  it('signs up without a session, mails a confirmation link to /auth/callback, and refuses sign-in until confirmed', async () => {
    const response = await signUp('ann@example.com');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ token: null, user: { email: 'ann@example.com', emailVerified: false } });
    expect(cookieOf(response.headers['set-cookie'])).not.toContain('session_token=');

    await t.mailsSettled();
    const mail = t.mails.find((m) => m.to === 'ann@example.com');
    expect(mail?.subject).toMatch(/Confirm your e-mail/);
    expect(mail?.text).toMatch(/\/api\/auth\/verify-email\?token=[^\s]+callbackURL=%2Fauth%2Fcallback/);
    expect(mail?.html).toContain('Confirm e-mail address');

    const mailsBefore = t.mails.length;
    const early = await signIn('ann@example.com', 'Str0ng!pass');
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('EMAIL_NOT_VERIFIED');
    expect(cookieOf(early.headers['set-cookie'])).not.toContain('session_token=');
    await t.mailsSettled();
    expect(t.mails.slice(mailsBefore).map((m) => m.subject)).toEqual([expect.stringMatching(/Confirm your e-mail/)]);
  });

  it("leads the confirmation link to the /auth/callback page without signing in; the page's post confirms and signs in", async () => {
    const link = await confirmationLinkOf(t, 'ann@example.com');
    const landing = await t.app.inject({ method: 'GET', url: link });
    expect(landing.statusCode).toBe(303);
    expect(cookieOf(landing.headers['set-cookie'])).not.toContain('session_token=');
    const page = new URL(String(landing.headers.location), ORIGIN);
    expect(page.pathname).toBe('/auth/callback');
    expect(page.searchParams.get('token')).toBe(new URL(link, ORIGIN).searchParams.get('token'));
    // Following the link alone confirmed nothing (a mail scanner that fetches it changes nothing).
    const [before] = await t.database.db.select().from(users).where(eq(users.email, 'ann@example.com'));
    expect(before?.emailVerified).toBe(false);

    const response = await confirmEmail(t, link);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: true });
    const cookie = cookieOf(response.headers['set-cookie']);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const me = await callApi(t, 'GET', '/api/user/auth', { cookie });
    expect(me.json()).toMatchObject({
      authenticated: true,
      user: { email: 'ann@example.com', role: 'user', emailVerified: true },
    });

    const signedIn = await signIn('ann@example.com', 'Str0ng!pass');
    expect(signedIn.statusCode).toBe(200);
    // No redirect for the web client to follow: the login page greets and goes to the dashboard itself.
    expect(signedIn.json().redirect).toBe(false);
    const token = signedIn.headers['set-auth-token'];
    expect(typeof token).toBe('string');
    const byBearer = await t.app.inject({
      method: 'GET',
      url: '/api/user/auth',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(byBearer.json().user.email).toBe('ann@example.com');
  });

  it("refuses the confirming post from another site or without an origin: no login CSRF with an attacker's link", async () => {
    await signUp('mallory@example.com');
    const link = await confirmationLinkOf(t, 'mallory@example.com');
    const token = new URL(link, ORIGIN).searchParams.get('token');
    for (const headers of [
      { 'content-type': 'application/json', origin: 'https://evil.example' },
      { 'content-type': 'application/json', referer: 'https://evil.example/page' },
      { 'content-type': 'application/json' },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/confirm-email',
        headers,
        payload: { token, password: 'Str0ng!pass' },
      });
      expect(response.statusCode).toBe(403);
      expect(cookieOf(response.headers['set-cookie'])).not.toContain('session_token=');
    }
    const [mallory] = await t.database.db.select().from(users).where(eq(users.email, 'mallory@example.com'));
    expect(mallory?.emailVerified).toBe(false);
  });

  it('answers a bad or missing confirmation token with 400 and words, not a session', async () => {
    for (const payload of [
      { token: 'not-a-token', password: 'Str0ng!pass' },
      { token: 'not-a-token' },
      {},
      { token: 42 },
    ]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/confirm-email', headers: json, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/\w+ \w+/);
      expect(cookieOf(response.headers['set-cookie'])).not.toContain('session_token=');
    }
  });

  it('answers a call it does not offer with a 404 in words, not a body of null', async () => {
    const { cookie } = await signUpCustomer(t, 'caller@example.com');
    for (const url of ['/api/auth/delete-user', '/api/auth/admin/impersonate-user', '/api/auth/no-such-call']) {
      const answer = await t.app.inject({ method: 'POST', url, headers: { ...json, cookie }, payload: {} });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toEqual({ message: noSuchAuthCallMessage });
    }
  });

  it('answers a sign-up with a known address as it answers a new one, and mails the owner instead', async () => {
    await t.mailsSettled();
    const mailsBefore = t.mails.length;
    const fresh = await signUp('fresh-twin@example.com');
    const known = await signUp('ann@example.com', 'Diff3rent!pass');
    expect(known.statusCode).toBe(fresh.statusCode);
    const shape = (body: { token: unknown; user: Record<string, unknown> }) => ({
      token: body.token,
      keys: Object.keys(body.user).sort(),
      emailVerified: body.user.emailVerified,
    });
    expect(shape(known.json())).toEqual(shape(fresh.json()));
    // The whole answer, headers included, is the same but for the address the requester typed.
    const again = await signUp('Ann@Example.com', 'Diff3rent!pass');
    const newcomer = await signUp('Nan@Example.com', 'Diff3rent!pass');
    expect(again.body.replace(/ann@/gi, 'x@')).toBe(newcomer.body.replace(/nan@/gi, 'x@'));
    const headersOf = (response: typeof again) => {
      const { date: _date, 'x-request-id': _id, ...rest } = response.headers;
      return rest;
    };
    expect(headersOf(again)).toEqual(headersOf(newcomer));
    expect(cookieOf(known.headers['set-cookie'])).toBe(cookieOf(fresh.headers['set-cookie']));
    await t.mailsSettled();
    const sent = t.mails.slice(mailsBefore);
    expect(sent.find((m) => m.to === 'ann@example.com')?.subject).toMatch(/You already have a .* account/);
    // The known account is untouched: its own password still signs in.
    expect((await signIn('ann@example.com', 'Str0ng!pass')).statusCode).toBe(200);
    expect((await signIn('ann@example.com', 'Diff3rent!pass')).statusCode).toBe(401);
  });

  it('takes as long to answer a sign-up with a known address as with a new one (both hash the password)', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      expect((await signUp(email)).statusCode).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const fresh: number[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await timed('ann@example.com'));
      fresh.push(await timed(`timing-${i}@example.com`));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    // Not a speed figure: a gap of the size of a password hash (tens of ms, most of the answer) would tell the two apart.
    const ratio = median(known) / median(fresh);
    expect(ratio, `known ${median(known)} ms, new ${median(fresh)} ms`).toBeGreaterThan(0.5);
    expect(ratio, `known ${median(known)} ms, new ${median(fresh)} ms`).toBeLessThan(2);
  });

  it('caps the e-mail address at 254 and the name at 100 characters', async () => {
    const longEmail = `${'a'.repeat(250)}@example.com`;
    const tooLong = await signUp(longEmail);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe('Email must be at most 254 characters');
    const longName = await callApi(t, 'POST', '/api/auth/sign-up/email', {
      payload: { email: 'named@example.com', password: 'Str0ng!pass', name: 'n'.repeat(100_000) },
    });
    expect(longName.statusCode).toBe(400);
    expect(longName.json().message).toBe('Name must be at most 100 characters');
  });

  it("refuses an address the service cannot take with the forms' 'Invalid email', never its field path or zod's words", async () => {
    for (const email of ['a@b', 'x@@example.com', 'two words@example.com', 'ann@example.com.']) {
      const signedUp = await signUp(email);
      expect(signedUp.statusCode, email).toBe(400);
      expect(signedUp.json().message, email).toBe(authMessages.invalidEmail);
    }
    for (const [url, payload] of [
      ['/api/auth/request-password-reset', { email: 'a@b', redirectTo: '/reset-password' }],
      ['/api/auth/sign-in/email', { email: 'a@b', password: 'Str0ng!pass' }],
      ['/api/auth/sign-up/email', { password: 'Str0ng!pass', name: 'no address' }],
    ] as const) {
      const answer = await t.app.inject({ method: 'POST', url, headers: json, payload });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json().message, url).toBe(authMessages.invalidEmail);
    }
  });

  it('refuses a return address that is not a page of this site with a 400, not a 500 or a redirect elsewhere', async () => {
    for (const callbackURL of [
      'true',
      'https://evil.example/x',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const answer = await t.app.inject({
        url: `/api/auth/verify-email?token=nothing&callbackURL=${encodeURIComponent(callbackURL)}`,
      });
      expect(answer.statusCode, callbackURL).toBe(400);
      expect(answer.json()).toEqual({ message: returnAddressMessage });
    }
    const own = await t.app.inject({ url: '/api/auth/verify-email?token=nothing&callbackURL=%2Fauth%2Fcallback' });
    expect(own.statusCode).toBe(302);
    expect(own.headers.location).toMatch(/^\/auth\/callback\?error=/);
  });

  it('answers authenticated false without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/auth' });
    expect(response.json()).toEqual({ authenticated: false, user: null });
  });

  it('refuses a weak password at sign-up with the first broken rule, in the order of the spec', async () => {
    const cases: [string, string][] = [
      ['Ab1!', authMessages.passwordTooShort],
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

  it('gives the admin role to an address in ADMIN_EMAILS only once it is confirmed', async () => {
    const response = await signUp('Boss@Example.com');
    expect(response.statusCode).toBe(200);
    const [unconfirmed] = await t.database.db.select().from(users).where(eq(users.email, 'boss@example.com'));
    expect(unconfirmed?.role).toBe('user');
    expect((await signIn('boss@example.com', 'Str0ng!pass')).statusCode).toBe(403);

    const confirmed = await confirmEmail(t, await confirmationLinkOf(t, 'boss@example.com'));
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user/auth',
      headers: { cookie: cookieOf(confirmed.headers['set-cookie']) },
    });
    expect(me.json().user.role).toBe('admin');
  });

  it('never lets a stranger who signed up first with an address hold its account (account pre-hijacking)', async () => {
    const db = t.database.db;
    const ownerRow = async () => (await db.select().from(users).where(eq(users.email, 'owner@example.com')))[0];
    // A stranger signs up first with an administrator's address, a password and a name of their own, and asks for links.
    const stranger = await callApi(t, 'POST', '/api/auth/sign-up/email', {
      payload: { email: 'owner@example.com', password: 'Strang3r!pass', name: 'Visit evil.example' },
    });
    expect(stranger.statusCode).toBe(200);
    expect((await signIn('owner@example.com', 'Strang3r!pass')).statusCode).toBe(403);
    const strangersLink = await confirmationLinkOf(t, 'owner@example.com');
    // The owner of the mailbox opens that link: without the stranger's password it confirms nothing.
    const guessed = await confirmEmail(t, strangersLink, 'Own3r!password');
    expect(guessed.statusCode).toBe(400);
    expect(guessed.json().message).toBe(confirmationMessages.wrongPassword);
    expect(cookieOf(guessed.headers['set-cookie'])).not.toContain('session_token=');
    expect((await ownerRow())?.emailVerified).toBe(false);

    // The owner signs up: the account starts over with the owner's password and name (not "you already have an
    // account"; no second link within a minute of the last: the one in the mailbox works with the new password).
    await t.mailsSettled();
    const before = t.mails.length;
    expect((await signUp('owner@example.com', 'Own3r!password')).statusCode).toBe(200);
    // Started over in the background (the answer takes as long as for any known address): a right password is now
    // told "confirm first" (403), a wrong one 401.
    await expect
      .poll(async () => (await signIn('owner@example.com', 'Own3r!password')).statusCode, { timeout: 15_000 })
      .toBe(403);
    expect((await signIn('owner@example.com', 'Strang3r!pass')).statusCode).toBe(401);
    expect((await ownerRow())?.name).toBe('owner@example.com');
    await t.mailsSettled();
    expect(t.mails.slice(before).filter((mail) => /already have/.test(mail.subject))).toEqual([]);
    expect((await confirmEmail(t, strangersLink, 'Strang3r!pass')).statusCode).toBe(400);
    const confirmed = await confirmEmail(t, strangersLink, 'Own3r!password');
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const me = await callApi(t, 'GET', '/api/user/auth', { cookie: cookieOf(confirmed.headers['set-cookie']) });
    expect(me.json().user.role).toBe('admin');
    expect((await signIn('owner@example.com', 'Strang3r!pass')).statusCode).toBe(401);
    expect((await signIn('owner@example.com', 'Own3r!password')).statusCode).toBe(200);

    // A sign-up that read the account while it was unconfirmed and writes after the confirmation changes nothing.
    const owner = await ownerRow();
    const late = await startUnconfirmedAccountOver(db, owner?.id ?? '', { password: 'Strang3r!pass', name: 'x' });
    expect(late).toEqual({ changed: false, mail: false });
    // Once confirmed, a sign-up with the address changes nothing and mails "you already have an account".
    expect((await signUp('owner@example.com', 'Strang3r!pass')).statusCode).toBe(200);
    expect((await signIn('owner@example.com', 'Strang3r!pass')).statusCode).toBe(401);
    expect((await signIn('owner@example.com', 'Own3r!password')).statusCode).toBe(200);
  });

  it('mails a started-over account a fresh link at most once a minute', async () => {
    const db = t.database.db;
    const address = 'twice@example.com';
    const links = async () => {
      await t.mailsSettled();
      return t.mails.filter((mail) => mail.to === address && /Confirm your e-mail/.test(mail.subject)).length;
    };
    expect((await signUp(address, 'Str0ng!pass')).statusCode).toBe(200);
    expect(await links()).toBe(1);
    const [user] = await db.select().from(users).where(eq(users.email, address));
    // When the password was last set (a sign-in would mail a link itself: the database is asked instead).
    const setAt = async () =>
      (
        await db
          .select()
          .from(accounts)
          .where(eq(accounts.userId, user?.id ?? ''))
      )[0]?.updatedAt.getTime();
    const first = await setAt();
    expect((await signUp(address, 'Str0ng!pass2')).statusCode).toBe(200);
    await expect.poll(setAt).not.toBe(first);
    expect(await links()).toBe(1);
    // A minute later, a sign-up mails a fresh link.
    await db
      .update(accounts)
      .set({ updatedAt: new Date(Date.now() - RESEND_AFTER_MS) })
      .where(eq(accounts.userId, user?.id ?? ''));
    expect((await signUp(address, 'Str0ng!pass3')).statusCode).toBe(200);
    await expect.poll(links).toBe(2);
    expect((await confirmEmail(t, await confirmationLinkOf(t, address), 'Str0ng!pass3')).statusCode).toBe(200);
  });

  it('at start-up promotes only confirmed listed users and demotes admins whose address is not confirmed', async () => {
    const db = t.database.db;
    await signUp('chief@example.com');
    await signUp('squatter@example.com');
    await db.update(users).set({ emailVerified: true }).where(eq(users.email, 'chief@example.com'));
    // An admin row left from before (an unconfirmed sign-up that had been given the role).
    await db.update(users).set({ role: 'admin' }).where(eq(users.email, 'squatter@example.com'));

    const result = await applyAdminEmails(db, ['chief@example.com', 'squatter@example.com', 'nobody@example.com']);
    expect(result).toEqual({ promoted: 1, demoted: 1 });
    const roles = await db.select({ email: users.email, role: users.role }).from(users);
    const roleOf = (email: string) => roles.find((row) => row.email === email)?.role;
    expect(roleOf('chief@example.com')).toBe('admin');
    expect(roleOf('squatter@example.com')).toBe('user');
    expect(await applyAdminEmails(db, ['chief@example.com'])).toEqual({ promoted: 0, demoted: 0 });
  });

  it('says the same thing for a reset of a known and of an unknown address, and mails only the known one', async () => {
    await t.mailsSettled();
    const before = t.mails.length;
    const known = await callApi(t, 'POST', '/api/auth/request-password-reset', {
      payload: { email: 'ann@example.com', redirectTo: '/reset-password' },
    });
    const unknown = await callApi(t, 'POST', '/api/auth/request-password-reset', {
      payload: { email: 'nobody@example.com', redirectTo: '/reset-password' },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    await t.mailsSettled();
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
    // The database keeps only a hash of the token: a copy of it cannot reset anyone's password.
    const stored = await t.database.db.select().from(verifications);
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(String(token));

    const oldSession = cookieOf((await signIn('ann@example.com', 'Str0ng!pass')).headers['set-cookie']);
    const reset = await callApi(t, 'POST', '/api/auth/reset-password', { payload: { newPassword: 'newpass', token } });
    // The one password rule holds for a reset too.
    expect(reset.statusCode).toBe(400);
    expect(reset.json().message).toBe(authMessages.passwordTooShort);
    const weak = await callApi(t, 'POST', '/api/auth/reset-password', { payload: { newPassword: 'abcdefgh', token } });
    expect(weak.json().message).toBe(authMessages.needsUppercase);
    const strong = await callApi(t, 'POST', '/api/auth/reset-password', {
      payload: { newPassword: 'N3wpass!', token },
    });
    expect(strong.statusCode).toBe(200);
    const me = await callApi(t, 'GET', '/api/user/auth', { cookie: oldSession });
    expect(me.json().authenticated).toBe(false);
    expect((await signIn('ann@example.com', 'Str0ng!pass')).statusCode).toBe(401);
    expect((await signIn('ann@example.com', 'N3wpass!')).statusCode).toBe(200);
    // The owner is told, with the way back should it not have been them.
    await t.mailsSettled();
    const notice = t.mails.findLast((m) => m.to === 'ann@example.com' && /password was changed/.test(m.subject));
    expect(notice?.text).toContain('/forgot-password');
  });

  it('shows the auth service message for a wrong password', async () => {
    const response = await signIn('ann@example.com', 'wrong-password');
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('Invalid email or password');
  });

  it('changes the password from Settings and signs out the other sessions, not this one', async () => {
    const first = cookieOf((await signIn('ann@example.com', 'N3wpass!')).headers['set-cookie']);
    const second = cookieOf((await signIn('ann@example.com', 'N3wpass!')).headers['set-cookie']);
    const tooShort = await callApi(t, 'POST', '/api/user/password', {
      cookie: second,
      payload: { newPassword: '12345' },
    });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().message).toContain(authMessages.passwordTooShort);
    const weak = await callApi(t, 'POST', '/api/user/password', { cookie: second, payload: { newPassword: 'abcdef' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toContain(authMessages.passwordTooShort);

    const changed = await callApi(t, 'POST', '/api/user/password', {
      cookie: second,
      payload: { newPassword: 'An0ther!pass' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await callApi(t, 'GET', '/api/user/auth', { cookie: first })).json().authenticated).toBe(false);
    expect((await callApi(t, 'GET', '/api/user/auth', { cookie: second })).json().authenticated).toBe(true);
    expect((await signIn('ann@example.com', 'An0ther!pass')).statusCode).toBe(200);
  });

  it('refuses a cookie-carried password change from another site', async () => {
    const cookie = cookieOf((await signIn('ann@example.com', 'An0ther!pass')).headers['set-cookie']);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/password',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie },
      payload: { newPassword: 'Hacked1!pass' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers 401 with the spec message on a protected route without a session', async () => {
    const response = await callApi(t, 'POST', '/api/user/password', { payload: { newPassword: 'Whatever1!' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: authMessages.authRequired });
  });

  it('refuses a sign-in posted from another origin, a look-alike one, `null`, or with neither Origin nor Referer', async () => {
    const response = await signIn('ann@example.com', 'another1', { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    for (const headers of [
      { origin: 'null' },
      { origin: 'http://localhost:3000.evil.example' },
      { origin: 'http://localhost:3001' },
      { referer: 'https://evil.example/http://localhost:3000/' },
    ]) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { 'content-type': 'application/json', ...headers },
        payload: { email: 'ann@example.com', password: 'An0ther!pass' },
      });
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(refused.json()).toEqual({ message: crossSiteMessage });
    }
    const bare = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: { email: 'ann@example.com', password: 'An0ther!pass' },
    });
    expect(bare.statusCode).toBe(403);
    expect(cookieOf(bare.headers['set-cookie'])).not.toContain('session_token=');
    const byReferer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', referer: `${ORIGIN}/sign-in` },
      payload: { email: 'ann@example.com', password: 'An0ther!pass' },
    });
    expect(byReferer.statusCode).toBe(200);
  });
});

describe('auth rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_EMAIL: '3',
      AUTH_RATE_LIMIT_PER_ACCOUNT: '6',
      AUTH_RATE_LIMIT_PER_IP: '5',
    });
  });
  afterAll(() => t.close());

  const attempt = (email: string, ip: string, password = 'whatever', cookie?: string) =>
    callApi(t, 'POST', '/api/auth/sign-in/email', { cookie, remoteAddress: ip, payload: { email, password } });

  it('limits sign-in per e-mail address and IP, with a message and Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt('target@example.com', '10.0.0.1')).statusCode).toBe(401);
    const blocked = await attempt('target@example.com', '10.0.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The same address from elsewhere, and another address from here, are still heard.
    expect((await attempt('target@example.com', '10.0.0.2')).statusCode).toBe(401);
    expect((await attempt('other@example.com', '10.0.0.1')).statusCode).toBe(401);
  });

  it('stops a guesser spread over many IPs at the higher per-address ceiling, but never the browser the customer signed in with', async () => {
    await signUpCustomer(t, 'victim@example.com');
    const mine = await attempt('victim@example.com', '10.3.0.1', 'Str0ng!pass');
    expect(mine.statusCode).toBe(200);
    const setCookies = ([] as string[]).concat(mine.headers['set-cookie'] ?? []);
    const device = setCookies.find((c) => c.startsWith('storefront.device='));
    expect(device).toMatch(/HttpOnly/i);
    const deviceCookie = device?.split(';')[0] ?? '';

    // Six attempts per address from every IP together; the customer's own sign-in above was the first.
    for (let i = 0; i < 5; i++) expect((await attempt('victim@example.com', `10.4.0.${i + 1}`)).statusCode).toBe(401);
    expect((await attempt('victim@example.com', '10.4.1.1')).statusCode).toBe(429);
    // The customer's own browser, from a new address even, is not locked out.
    expect((await attempt('victim@example.com', '10.3.0.9', 'Str0ng!pass', deviceCookie)).statusCode).toBe(200);
    // A device cookie is bound to its address and cannot be forged.
    expect((await attempt('someone@example.com', '10.4.2.1', 'x', deviceCookie)).statusCode).toBe(401);
    expect(
      (
        await attempt(
          'victim@example.com',
          '10.4.2.2',
          'x',
          deviceCookie.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
        )
      ).statusCode,
    ).toBe(429);
    // The device is counted on its own: a guesser holding it gets the per-address number of tries.
    for (let i = 0; i < 2; i++)
      expect((await attempt('victim@example.com', '10.3.0.9', 'wrong', deviceCookie)).statusCode).toBe(401);
    expect((await attempt('victim@example.com', '10.3.0.9', 'wrong', deviceCookie)).statusCode).toBe(429);
  });

  it("closes better-auth's own change-password, and limits password checks behind a session", async () => {
    const { cookie } = await signUpCustomer(t, 'session-guess@example.com');
    const call = (url: string, payload: object, remoteAddress: string) =>
      callApi(t, 'POST', url, { cookie, remoteAddress, payload });
    // The shop's own call (POST /api/user/password) is the one way: it asks an older sign-in for the code too.
    const closed = await call(
      '/api/auth/change-password',
      { currentPassword: 'Str0ng!pass', newPassword: 'N3wer!pass' },
      '10.6.0.1',
    );
    expect(closed.statusCode).toBe(404);
    expect(closed.json()).toEqual({ message: noSuchAuthCallMessage });
    for (let i = 0; i < 3; i++)
      expect(
        (await call('/api/auth/two-factor/get-totp-uri', { password: 'Wrong1!x' }, '10.7.0.1')).statusCode,
      ).not.toBe(429);
    expect((await call('/api/auth/two-factor/get-totp-uri', { password: 'Wrong1!x' }, '10.7.0.2')).statusCode).toBe(
      429,
    );
  });

  it('limits sign-in per IP whatever the address', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt(`user${i}@example.com`, '10.9.9.9')).statusCode).toBe(401);
    expect((await attempt('fresh@example.com', '10.9.9.9')).statusCode).toBe(429);
    expect((await attempt('fresh@example.com', '10.9.9.8')).statusCode).toBe(401);
  });

  it('limits password-reset requests too', async () => {
    const reset = () =>
      callApi(t, 'POST', '/api/auth/request-password-reset', {
        remoteAddress: '10.5.5.5',
        payload: { email: 'spam@example.com', redirectTo: '/reset-password' },
      });
    for (let i = 0; i < 3; i++) expect((await reset()).statusCode).toBe(200);
    expect((await reset()).statusCode).toBe(429);
  });
});

describe('a ban with an end, on a session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses the session while the ban runs and lets it through once the ban has ended, as API keys and the gateway do', async () => {
    const dan = await signUpCustomer(t, 'dan@example.com');
    const orders = () => callApi(t, 'GET', '/api/orders', { cookie: dan.cookie });
    const ban = (banExpires: Date | null) =>
      t.database.db.update(users).set({ banned: true, banExpires }).where(eq(users.id, dan.id));
    expect((await orders()).statusCode).toBe(200);
    await ban(new Date(Date.now() + 60 * 60_000));
    expect((await orders()).statusCode).toBe(401);
    await ban(null);
    expect((await orders()).statusCode).toBe(401);
    await ban(new Date(Date.now() - 1000));
    expect((await orders()).statusCode).toBe(200);
  });
});

describe('the sign-in limits on IPv6', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '3' });
  });
  afterAll(() => t.close());

  it('count a /64 as one address, as the gateway does: a new address per guess gains nothing', async () => {
    const guess = (remoteAddress: string, n: number) =>
      callApi(t, 'POST', '/api/auth/sign-in/email', {
        remoteAddress,
        payload: { email: `guess${n}@example.com`, password: 'wrong-password-1' },
      });
    const statuses = [];
    for (let n = 1; n <= 4; n++) statuses.push((await guess(`2001:db8:5:6::${n}`, n)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another /64 is another subscriber.
    expect((await guess('2001:db8:5:7::1', 5)).statusCode).toBe(401);
  });
});

describe('sign-up answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => t.close());

  it('take the same time, at least SIGN_UP_ANSWER_MS, for a new, an unconfirmed and a confirmed address', async () => {
    await signUpCustomer(t, 'known@example.com');
    await callApi(t, 'POST', '/api/auth/sign-up/email', {
      payload: { email: 'pending@example.com', password: 'Str0ng!pass', name: 'p', callbackURL: '/auth/callback' },
    });
    for (const email of ['fresh@example.com', 'pending@example.com', 'known@example.com']) {
      const started = performance.now();
      const answer = await callApi(t, 'POST', '/api/auth/sign-up/email', {
        payload: { email, password: 'An0ther!pass', name: 'n', callbackURL: '/auth/callback' },
      });
      expect(answer.statusCode, email).toBe(200);
      expect(performance.now() - started, email).toBeGreaterThanOrEqual(SIGN_UP_ANSWER_MS);
    }
  });
});

describe('the sign-in limits behind a load balancer (TRUST_PROXY=true)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  it('count the address the balancer saw, not what the client wrote in X-Forwarded-For', async () => {
    const statuses = [];
    for (let n = 1; n <= 9; n++) {
      const answer = await callApi(t, 'POST', '/api/auth/sign-in/email', {
        // The client's own X-Forwarded-For, to which the balancer appended the address it saw.
        headers: { 'x-forwarded-for': `203.0.113.${n}, 198.51.100.7` },
        payload: { email: 'behind@example.com', password: 'wrong-password-1' },
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([...Array(8).fill(401), 429]);
  });
});

describe('password checks behind a session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => t.close());

  it('count verify-password per session, however its cookie is spelled, and list no session tokens', async () => {
    const { cookie } = await signUpCustomer(t, 'verify-guess@example.com');
    const [name, value = ''] = cookie.split('=');
    // The same session cookie with one character percent-encoded, as a cookie parser reads it.
    const respelled = `${name}=%${value.charCodeAt(0).toString(16)}${value.slice(1)}`;
    const statuses = [];
    for (let i = 0; i < 9; i++) {
      const answer = await callApi(t, 'POST', '/api/auth/verify-password', {
        cookie: i % 2 === 0 ? cookie : respelled,
        remoteAddress: `10.8.0.${i + 1}`,
        payload: { password: `Wrong${i}!pass` },
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, 8)).not.toContain(429);
    const listed = await callApi(t, 'GET', '/api/auth/list-sessions', { cookie });
    expect(listed.statusCode).toBe(404);
  });
});
