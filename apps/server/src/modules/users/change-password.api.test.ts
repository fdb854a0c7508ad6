import { passwordChangeMessages } from '@storefront/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totp } from '../../../../../e2e/support/totp.ts';
import { accounts, sessions } from '../../db/schema.ts';
import { callApi, cookieOf, createTestApp, signUpCustomer, TEST_PASSWORD, type TestApp } from '../../test/test-app.ts';
import { FRESH_SESSION_MS } from './change-password.ts';

describe('changing the password from Settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => t.close());

  const change = (cookie: string, payload: Record<string, string>) =>
    callApi(t, 'POST', '/api/user/password', { cookie, payload });
  /** Makes the account's sessions as old as a cookie stolen a while after its owner signed in. */
  const age = (userId: string) =>
    t.database.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - FRESH_SESSION_MS - 60_000) })
      .where(eq(sessions.userId, userId));

  it('takes the new password alone just after signing in, and e-mails the owner a way back', async () => {
    const ann = await signUpCustomer(t, 'ann@example.com');
    const answer = await change(ann.cookie, { newPassword: 'An0ther!pass' });
    expect(answer.statusCode, answer.body).toBe(200);
    await t.mailsSettled();
    const notice = t.mails.find((mail) => mail.to === 'ann@example.com' && /password was changed/.test(mail.subject));
    expect(notice?.text).toContain('http://localhost:3000/forgot-password');
  });

  it('asks an older sign-in for the current password, which a stolen cookie does not know', async () => {
    const bob = await signUpCustomer(t, 'bob@example.com');
    await age(bob.id);
    const bare = await change(bob.cookie, { newPassword: 'Hijack3d!pass' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toBe(passwordChangeMessages.currentPasswordRequired);
    const wrong = await change(bob.cookie, { newPassword: 'Hijack3d!pass', currentPassword: 'Guess1!pass' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(passwordChangeMessages.wrongCurrentPassword);
    const right = await change(bob.cookie, { newPassword: 'An0ther!pass', currentPassword: TEST_PASSWORD });
    expect(right.statusCode, right.body).toBe(200);
  });

  it('asks an older sign-in for the authenticator code too when two-factor is on', async () => {
    const cal = await signUpCustomer(t, 'cal@example.com');
    const enabled = await callApi(t, 'POST', '/api/auth/two-factor/enable', {
      cookie: cal.cookie,
      payload: { password: TEST_PASSWORD },
    });
    const secret = new URL(enabled.json().totpURI).searchParams.get('secret') ?? '';
    const verified = await callApi(t, 'POST', '/api/auth/two-factor/verify-totp', {
      cookie: cal.cookie,
      payload: { code: totp(secret) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const cookie = cookieOf(verified.headers['set-cookie']) || cal.cookie;
    await age(cal.id);
    const withoutCode = await change(cookie, { newPassword: 'An0ther!pass', currentPassword: TEST_PASSWORD });
    expect(withoutCode.json().message).toBe(passwordChangeMessages.codeRequired);
    const wrongCode = await change(cookie, {
      newPassword: 'An0ther!pass',
      currentPassword: TEST_PASSWORD,
      code: totp(secret, Date.now() - 10 * 60_000),
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().message).toBe(passwordChangeMessages.wrongCode);
    const right = await change(cookie, {
      newPassword: 'An0ther!pass',
      currentPassword: TEST_PASSWORD,
      code: totp(secret),
    });
    expect(right.statusCode, right.body).toBe(200);
  });

  it('sends an older sign-in of an account without a password to sign in again', async () => {
    const dee = await signUpCustomer(t, 'dee@example.com');
    await t.database.db.delete(accounts).where(and(eq(accounts.userId, dee.id), eq(accounts.providerId, 'credential')));
    await age(dee.id);
    const answer = await change(dee.cookie, { newPassword: 'An0ther!pass' });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(passwordChangeMessages.signInAgain);
  });

  it('counts guesses of the current password per account', async () => {
    const eve = await signUpCustomer(t, 'eve@example.com');
    await age(eve.id);
    const statuses = [];
    for (let attempt = 0; attempt < 9; attempt++) {
      statuses.push(
        (await change(eve.cookie, { newPassword: 'An0ther!pass', currentPassword: `Guess${attempt}!x` })).statusCode,
      );
    }
    expect(statuses).toEqual([...Array(8).fill(400), 429]);
  });
});
