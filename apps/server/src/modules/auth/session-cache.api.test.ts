import { authMessages } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions, users } from '../../db/schema.ts';
import { callApi, createTestApp, jsonHeaders, signUpCustomer, type TestApp } from '../../test/test-app.ts';

const read = (t: TestApp, cookie: string, url = '/api/orders') => callApi(t, 'GET', url, { cookie });
const signOut = (t: TestApp, cookie: string) => callApi(t, 'POST', '/api/auth/sign-out', { cookie, payload: {} });

describe('the session cache on one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SESSION_CACHE_MS: '60000', AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => t.close());

  it('answers reads from memory, yet a sign-out or a password change applies at once on this instance', async () => {
    const ann = await signUpCustomer(t, 'ann@example.com');
    expect((await read(t, ann.cookie)).statusCode).toBe(200);
    // The session is gone from the database, but this instance remembers it: a read still passes, a write does not.
    await t.database.db.delete(sessions).where(eq(sessions.userId, ann.id));
    expect((await read(t, ann.cookie)).statusCode).toBe(200);
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/orders/cancel',
      headers: { ...jsonHeaders, cookie: ann.cookie },
      payload: { id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(write.statusCode).toBe(401);
    expect(write.json().message).toBe(authMessages.authRequired);

    // Sign-out through the app forgets the session here at once.
    const bob = await signUpCustomer(t, 'bob@example.com');
    expect((await read(t, bob.cookie, '/api/user/auth')).json().authenticated).toBe(true);
    expect((await signOut(t, bob.cookie)).statusCode).toBe(200);
    expect((await read(t, bob.cookie)).statusCode).toBe(401);
    expect((await read(t, bob.cookie, '/api/user/auth')).json()).toEqual({ authenticated: false, user: null });

    // A password change signs out the other devices, here at once.
    const cal = await signUpCustomer(t, 'cal@example.com');
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: jsonHeaders,
      payload: { email: 'cal@example.com', password: 'Str0ng!pass' },
    });
    const otherCookie = (other.headers['set-cookie'] as string[] | string).toString().split(';')[0] ?? '';
    expect((await read(t, otherCookie)).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/user/password',
      headers: { ...jsonHeaders, cookie: cal.cookie },
      payload: { newPassword: 'N3w!passw0rd' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await read(t, otherCookie)).statusCode).toBe(401);
  });

  it('keeps the admin console out of the cache: a demoted administrator is refused at once', async () => {
    const boss = await signUpCustomer(t, 'boss@example.com');
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, boss.id));
    expect((await read(t, boss.cookie, '/api/admin/features')).statusCode).toBe(200);
    expect((await read(t, boss.cookie, '/api/user/auth')).json().user.role).toBe('admin');
    await t.database.db.update(users).set({ role: 'user' }).where(eq(users.id, boss.id));
    expect((await read(t, boss.cookie, '/api/admin/features')).statusCode).toBe(403);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('the session cache on two instances of one PostgreSQL', () => {
  // One AUTH_SECRET for both, as in production (it signs the session cookies).
  const env = { SESSION_CACHE_MS: '400', AUTH_RATE_LIMIT_PER_IP: '1000', AUTH_SECRET: 'x'.repeat(40) };
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

  it('lets the other instance serve reads for at most SESSION_CACHE_MS after a sign-out, and no write', async () => {
    const dee = await signUpCustomer(first, 'dee@example.com');
    expect((await read(second, dee.cookie)).statusCode).toBe(200);
    expect((await signOut(first, dee.cookie)).statusCode).toBe(200);
    expect((await read(first, dee.cookie)).statusCode).toBe(401);
    // The second instance still remembers the session for reads, never for writes.
    expect((await read(second, dee.cookie)).statusCode).toBe(200);
    const write = await second.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...jsonHeaders, cookie: dee.cookie },
      payload: { name: 'after sign-out' },
    });
    expect(write.statusCode).toBe(401);
    // Once its memory of the session runs out (SESSION_CACHE_MS), it asks the database and refuses the read too.
    await vi.waitFor(async () => expect((await read(second, dee.cookie)).statusCode).toBe(401), {
      timeout: 10_000,
      interval: 50,
    });
  });
});
