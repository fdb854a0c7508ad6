import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema.ts';
import { callApi, cookieOf, createTestApp, signUpCustomer, TEST_PASSWORD, type TestApp } from '../../test/test-app.ts';

const read = (t: TestApp, cookie: string, url = '/api/orders') => callApi(t, 'GET', url, { cookie });
const signOut = (t: TestApp, cookie: string) => callApi(t, 'POST', '/api/auth/sign-out', { cookie, payload: {} });
const signIn = async (t: TestApp, email: string) =>
  cookieOf(
    (await callApi(t, 'POST', '/api/auth/sign-in/email', { payload: { email, password: TEST_PASSWORD } })).headers[
      'set-cookie'
    ],
  );

describe('a session ended in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => t.close());

  it('is refused at once, for reads as for writes', async () => {
    const ann = await signUpCustomer(t, 'ann@example.com');
    expect((await read(t, ann.cookie)).statusCode).toBe(200);
    await t.database.db.delete(sessions).where(eq(sessions.userId, ann.id));
    expect((await read(t, ann.cookie)).statusCode).toBe(401);
    expect((await read(t, ann.cookie, '/api/user/auth')).json()).toEqual({ authenticated: false, user: null });
  });

  it('keeps no administrator who was demoted', async () => {
    const boss = await signUpCustomer(t, 'boss@example.com');
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, boss.id));
    expect((await read(t, boss.cookie, '/api/admin/features')).statusCode).toBe(200);
    await t.database.db.update(users).set({ role: 'user' }).where(eq(users.id, boss.id));
    expect((await read(t, boss.cookie, '/api/admin/features')).statusCode).toBe(403);
    expect((await read(t, boss.cookie, '/api/user/auth')).json().user.role).toBe('user');
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('two instances of one PostgreSQL', () => {
  // One AUTH_SECRET for both, as in production (it signs the session cookies).
  const env = { AUTH_RATE_LIMIT_PER_IP: '1000', AUTH_SECRET: 'x'.repeat(40) };
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp(env);
    const url = first.config.database.kind === 'postgres' ? first.config.database.connectionString : '';
    second = await createTestApp({ ...env, DATABASE_URL: url });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('refuses a session signed out on the other at once, for reads too', async () => {
    const dee = await signUpCustomer(first, 'dee@example.com');
    expect((await read(second, dee.cookie)).statusCode).toBe(200);
    expect((await signOut(first, dee.cookie)).statusCode).toBe(200);
    expect((await read(second, dee.cookie)).statusCode).toBe(401);
    expect((await read(second, dee.cookie, '/api/proxy-list')).statusCode).toBe(401);
  });

  it('refuses a banned customer and revoked sessions on the other at once', async () => {
    const boss = await signUpCustomer(first, 'boss@example.com');
    await first.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, boss.id));
    const eve = await signUpCustomer(first, 'eve@example.com');
    expect((await read(second, eve.cookie)).statusCode).toBe(200);
    const banned = await callApi(first, 'POST', '/api/auth/admin/ban-user', {
      cookie: boss.cookie,
      payload: { userId: eve.id },
    });
    expect(banned.statusCode, banned.body).toBe(200);
    expect((await read(second, eve.cookie)).statusCode).toBe(401);

    const fay = await signUpCustomer(first, 'fay@example.com');
    const otherDevice = await signIn(first, 'fay@example.com');
    expect((await read(second, otherDevice)).statusCode).toBe(200);
    const revoked = await callApi(first, 'POST', '/api/auth/revoke-other-sessions', {
      cookie: fay.cookie,
      payload: {},
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await read(second, otherDevice)).statusCode).toBe(401);
    expect((await read(second, fay.cookie)).statusCode).toBe(200);
  });
});
