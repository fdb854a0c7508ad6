import { eq } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, residentialAccounts } from '../db/schema.ts';
import { changedTables, databaseFingerprint } from '../test/fingerprint.ts';
import { recordProof } from '../test/proof-results.ts';
import { authEndpoints } from '../test/route-table.ts';
import {
  callApi,
  cookieOf,
  createTestApp,
  jsonHeaders,
  type Method,
  signUpCustomer,
  type TestApp,
} from '../test/test-app.ts';
import { type Access, AUTH_MATRIX, type MatrixFixture, ROUTE_MATRIX } from './route-matrix.ts';

type Role = 'visitor' | 'customer' | 'other' | 'admin';
/** Refusals first, so an allowed call (which may change things) never hides a refused one's change. */
const ROLES: Role[] = ['visitor', 'other', 'customer', 'admin'];

/** What each role must get: a status, or 'allowed' (past the guard: not 401, 403 or 5xx; for `owner`, not 404 either). */
const EXPECTED: Record<Access, Record<Role, number | 'allowed' | 'any'>> = {
  disabled: { visitor: 404, customer: 404, other: 404, admin: 404 },
  page: { visitor: 'allowed', customer: 'allowed', other: 'allowed', admin: 'allowed' },
  public: { visitor: 'allowed', customer: 'allowed', other: 'allowed', admin: 'allowed' },
  customer: { visitor: 401, customer: 'allowed', other: 'allowed', admin: 'allowed' },
  reader: { visitor: 401, customer: 'allowed', other: 'allowed', admin: 'allowed' },
  owner: { visitor: 401, customer: 'allowed', other: 404, admin: 404 },
  admin: { visitor: 401, customer: 403, other: 403, admin: 'allowed' },
  signed: { visitor: 400, customer: 400, other: 400, admin: 400 },
  capability: { visitor: 'allowed', customer: 'allowed', other: 'allowed', admin: 'allowed' },
  'auth-step': { visitor: 'any', customer: 'any', other: 'any', admin: 'any' },
};

const ENV = {
  ADMIN_EMAILS: 'admin@example.com',
  AUTH_RATE_LIMIT_PER_IP: '100000',
  AUTH_RATE_LIMIT_PER_EMAIL: '100000',
  AUTH_RATE_LIMIT_PER_ACCOUNT: '100000',
  CHECKOUT_RATE_LIMIT_PER_USER: '100000',
  GOOGLE_CLIENT_ID: 'matrix-client',
  GOOGLE_CLIENT_SECRET: 'matrix-secret',
};
const PASSWORD = 'Str0ng!pass';

/**
 * `METHOD pattern` of every route an app answers, with better-auth's endpoints in place of `/api/auth/*` (our own calls
 * declared beside it, such as POST /api/auth/confirm-email, are routes of the table).
 */
function routesOf(t: TestApp): string[] {
  const authRoutes = authEndpoints(t).map((endpoint) => `${endpoint.method} ${endpoint.url}`);
  const fastifyRoutes = t.app.routeTable
    .filter((route) => route.url !== '/api/auth/*')
    .map((route) => `${route.method} ${route.url}`);
  return [...fastifyRoutes, ...authRoutes];
}

describe('authorisation matrix: every route × visitor, customer, another customer, admin', () => {
  let t: TestApp;
  let stripe: TestApp;
  const cookies: Record<Role, string> = { visitor: '', customer: '', other: '', admin: '' };
  let fixture: MatrixFixture;

  const passwords: Record<Role, string> = { visitor: '', customer: PASSWORD, other: PASSWORD, admin: PASSWORD };
  const emails: Record<Role, string> = {
    visitor: '',
    customer: 'ann@example.com',
    other: 'bob@example.com',
    admin: 'admin@example.com',
  };
  const oidc = new OAuth2Server();

  const call = (role: Role, method: string, request: { url: string; payload?: unknown }, app = t) =>
    callApi(app, method as Method, request.url, { cookie: cookies[role], payload: request.payload });

  /** An allowed call may end the role's session (sign-out, a new password): the role signs in again, as a person would. */
  async function keepSignedIn(role: Role) {
    if (role === 'visitor') return;
    const me = await call(role, 'GET', { url: '/api/user/auth' });
    if ((me.json() as { user: unknown }).user) return;
    for (const password of [passwords[role], 'N3w!passphrase']) {
      const answer = await call('visitor', 'POST', {
        url: '/api/auth/sign-in/email',
        payload: { email: emails[role], password },
      });
      if (answer.statusCode === 200) {
        cookies[role] = cookieOf(answer.headers['set-cookie']);
        passwords[role] = password;
        return;
      }
    }
    throw new Error(`${role} could not sign in again`);
  }

  beforeAll(async () => {
    await oidc.issuer.keys.generate('RS256');
    await oidc.start(0, '127.0.0.1');
    const env = { ...ENV, GOOGLE_DISCOVERY_URL: `${oidc.issuer.url}/.well-known/openid-configuration` };
    t = await createTestApp(env);
    stripe = await createTestApp({
      ...env,
      STRIPE_SECRET_KEY: 'sk_test_matrix',
      STRIPE_WEBHOOK_SECRET: 'whsec_matrix',
      STRIPE_API_URL: 'http://127.0.0.1:9',
    });
    cookies.admin = (await signUpCustomer(t, 'admin@example.com')).cookie;
    const ann = await signUpCustomer(t, 'ann@example.com');
    cookies.customer = ann.cookie;
    cookies.other = (await signUpCustomer(t, 'bob@example.com')).cookie;
    const victim = await signUpCustomer(t, 'victim@example.com');

    const checkout = async () => {
      const answer = await call('customer', 'POST', {
        url: '/api/checkout',
        payload: { productId: 'isp_proxies', quantity: 5 },
      });
      return (answer.json() as { checkoutUrl: string }).checkoutUrl.split('/sandbox/checkout/')[1] ?? '';
    };
    const paid = await checkout();
    const paidAnswer = await call('customer', 'POST', {
      url: `/api/sandbox/checkout/${paid}/pay`,
      payload: { card: 'ok' },
    });
    expect(paidAnswer.statusCode).toBe(200);
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.userId, ann.id));
    const key = await call('customer', 'POST', { url: '/api/api-keys', payload: { name: 'revoked by the matrix' } });
    const coupon = await call('admin', 'POST', {
      url: '/api/admin/coupons',
      payload: {
        code: 'FIXTURE5',
        name: 'Fixture five',
        duration: 'forever',
        discountType: 'percent_off',
        percentOff: 5,
        appliesToProducts: ['isp_proxies'],
      },
    });
    expect(coupon.statusCode).toBeLessThan(300);
    const { coupons } = (await call('admin', 'GET', { url: '/api/admin/coupons' })).json() as {
      coupons: { id: string; promoCodes: { id: string; code: string }[] }[];
    };
    const fixtureCoupon = coupons.find((c) => c.promoCodes.some((p) => p.code === 'FIXTURE5'));
    await t.database.db
      .insert(residentialAccounts)
      .values({ userId: ann.id, username: 'resmatrix', password: 'matrixpass', totalKb: 5_120_000 });
    const proxyUser = async (name: string) =>
      ((await call('customer', 'POST', { url: '/api/proxy-users', payload: { name } })).json() as { id: string }).id;
    fixture = {
      checkoutId: await checkout(),
      orderId: payment?.orderId ?? '',
      invoiceId: payment?.invoiceId ?? '',
      apiKeyId: (key.json() as { id: string }).id,
      victimId: victim.id,
      victimEmail: 'victim@example.com',
      victimPassword: PASSWORD,
      couponId: fixtureCoupon?.id ?? '',
      promoCodeId: fixtureCoupon?.promoCodes[0]?.id ?? '',
      proxyUserId: await proxyUser('kept'),
      deletableProxyUserId: await proxyUser('deleted'),
      cardSetupId: (
        (await call('customer', 'POST', { url: '/api/residential/top-up/card' })).json() as { url: string }
      ).url
        .split('/')
        .pop() as string,
    };
    expect(Object.values(fixture).every(Boolean)).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
    await oidc.stop();
  });

  it('has an entry for every route of both providers, and no entry for a route that is gone', () => {
    const routes = new Set([...routesOf(t), ...routesOf(stripe)]);
    const entries = new Set([...Object.keys(ROUTE_MATRIX), ...Object.keys(AUTH_MATRIX)]);
    expect(
      [...routes].filter((route) => !entries.has(route)),
      'routes without an entry in route-matrix.ts',
    ).toEqual([]);
    expect(
      [...entries].filter((entry) => !routes.has(entry)),
      'entries for routes that no longer exist',
    ).toEqual([]);
  });

  it('gives each role what its entry says, and a refused call changes nothing', async () => {
    const sandboxRoutes = new Set(routesOf(t));
    const problems: string[] = [];
    let calls = 0;
    let refusals = 0;
    // The fingerprint taken after a refused call, which changed nothing, is the next call's "before" on that app.
    let unchanged: { app: TestApp; fingerprint: Record<string, string> } | undefined;
    for (const [route, entry] of Object.entries({ ...ROUTE_MATRIX, ...AUTH_MATRIX })) {
      const [method = 'GET'] = route.split(' ');
      const app = sandboxRoutes.has(route) ? t : stripe;
      for (const role of ROLES) {
        const expected = EXPECTED[entry.access][role];
        const before = unchanged?.app === app ? unchanged.fingerprint : await databaseFingerprint(app.database.db);
        unchanged = undefined;
        const answer = await call(role, method, entry.request(fixture), app);
        calls++;
        const status = answer.statusCode;
        const label = `${route} as ${role}: ${status} ${answer.body.slice(0, 120)}`;
        const notBuilt = entry.access === 'page' && status === 503 && answer.body.includes('npm run build');
        if (status >= 500 && !notBuilt) problems.push(`${label} (a 5xx)`);
        if (typeof expected === 'number' && status !== expected) problems.push(`${label} (expected ${expected})`);
        if (expected === 'allowed' && [401, 403].includes(status)) problems.push(`${label} (expected past the guard)`);
        if (expected === 'allowed' && entry.access === 'owner' && status === 404)
          problems.push(`${label} (the owner's own)`);
        if (status >= 400) {
          refusals++;
          const after = await databaseFingerprint(app.database.db);
          const changed = changedTables(before, after);
          if (changed.length > 0) problems.push(`${label} changed ${changed.join(', ')}`);
          else unchanged = { app, fingerprint: after };
        } else if (app === t) {
          await keepSignedIn(role);
        }
      }
    }
    recordProof('authorisation matrix', {
      routes: Object.keys(ROUTE_MATRIX).length + Object.keys(AUTH_MATRIX).length,
      calls,
      refusals,
      problems: problems.length,
    });
    expect(problems).toEqual([]);
  }, 120_000); // every route × four roles, each refused call checked for changes: a slow test on a busy machine

  it("a customer's API key reads only the reads (orders, proxy users) and the list link, and only its holder's", async () => {
    const key = (await call('customer', 'POST', { url: '/api/api-keys', payload: { name: 'matrix key' } })).json() as {
      key: string;
    };
    const problems: string[] = [];
    for (const [route, entry] of Object.entries(ROUTE_MATRIX)) {
      const [method = 'GET'] = route.split(' ');
      if (!['customer', 'reader', 'owner', 'admin'].includes(entry.access) || route.includes('webhooks/stripe'))
        continue;
      const before = await databaseFingerprint(t.database.db);
      const answer = await t.app.inject({
        method: method as 'GET',
        url: entry.request(fixture).url,
        headers: { ...jsonHeaders, authorization: `Bearer ${key.key}` },
        ...(entry.request(fixture).payload !== undefined && { payload: entry.request(fixture).payload as object }),
      });
      const allowed = entry.access === 'reader';
      if (allowed && answer.statusCode !== 200) problems.push(`${route}: ${answer.statusCode} with a key`);
      if (!allowed && answer.statusCode !== 401) problems.push(`${route}: ${answer.statusCode} with a key, not 401`);
      const changed = changedTables(before, await databaseFingerprint(t.database.db));
      // Reading by key stamps the key's last use (at most once a minute); nothing else may change.
      const unexpected = changed.filter((table) => !(allowed && table === 'api_keys'));
      if (unexpected.length > 0) problems.push(`${route} with a key changed ${unexpected.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });
});
