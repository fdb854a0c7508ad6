import {
  addressOf,
  type CallInput,
  type Access as EndpointAccess,
  type EndpointName,
  endpoints,
  routeKeyOf,
} from '@storefront/contract';

/**
 * Who may call what: one entry for every route the server answers (better-auth's endpoints in place of its catch-all),
 * for both payment providers; `authorisation-matrix.api.test.ts` fails on a route without an entry or an entry without
 * a route, and calls each as a visitor, a customer, another customer and an administrator. The contract's calls take
 * their address and access from it and have a realistic request here (SAMPLES); other routes are listed by hand.
 */

/** Who may call a route: the contract's levels (packages/contract/src/endpoint.ts), and those of routes not ours. */
export type Access =
  | EndpointAccess
  /** A call of better-auth this shop turns off (auth.ts, DISABLED_AUTH_PATHS): 404 for everyone. */
  | 'disabled'
  /** A page of the web app (503 saying how to build it when the build is missing). */
  | 'page'
  /** A payment provider's webhook: without its signature everyone gets 400. */
  | 'signed'
  /** A step of a sign-in, confirmation or reset flow needing a token, code or cookie from an earlier step; never 5xx. */
  | 'auth-step';

/** The objects the matrix points at: made by the test before the first call. */
export interface MatrixFixture {
  /** The customer's (owner's) unpaid sandbox checkout. */
  checkoutId: string;
  /** The customer's paid order (a sandbox subscription). */
  orderId: string;
  /** The invoice of that payment. */
  invoiceId: string;
  /** One of the customer's API keys (a `DELETE` by the owner revokes it). */
  apiKeyId: string;
  /** A customer nobody signs in as, whom administrators' calls may change. */
  victimId: string;
  victimEmail: string;
  victimPassword: string;
  couponId: string;
  promoCodeId: string;
  /** One of the customer's proxy users, kept. */
  proxyUserId: string;
  /** Another of the customer's proxy users, which the owner's `DELETE` deletes. */
  deletableProxyUserId: string;
  /** The customer's sandbox card page, not yet used. */
  cardSetupId: string;
}

export interface MatrixRequest {
  url: string;
  payload?: unknown;
}

export interface MatrixEntry {
  access: Access;
  /** A realistic call: the body an allowed caller would send (refusals must come from the role, not the body). */
  request: (f: MatrixFixture) => MatrixRequest;
}

const get = (url: string) => () => ({ url });
const post = (url: string, payload: unknown) => () => ({ url, payload });
const strongPassword = 'N3w!passphrase';

type Endpoints = typeof endpoints;

/**
 * A realistic call of every endpoint of the contract, typed by it (the test sends it as each role): the parameters,
 * query and body an allowed caller would send.
 */
const SAMPLES: { [N in EndpointName]: (f: MatrixFixture) => CallInput<Endpoints[N]> } = {
  listApiKeys: () => ({}),
  createApiKey: () => ({ body: { name: 'matrix' } }),
  revokeApiKey: (f) => ({ params: { id: f.apiKeyId } }),
  getHealth: () => ({}),
  getReadiness: () => ({}),
  getPricing: () => ({}),
  listFeatures: () => ({}),
  checkSession: () => ({}),
  changePassword: () => ({ body: { newPassword: strongPassword } }),
  // A token that is not one: the call answers 400 to everyone, past every guard (it is a step of the confirmation).
  confirmEmail: () => ({ body: { token: 'not-a-token', password: strongPassword } }),
  getAuthorizedIps: () => ({}),
  saveAuthorizedIps: () => ({ body: { ips: ['8.8.4.4'], onlyFromTheseIps: false } }),
  getPreferences: () => ({}),
  savePreferences: () => ({ body: { usageEmails: false } }),
  listOrders: () => ({}),
  listOrderUsage: () => ({}),
  getDailyUsage: () => ({}),
  getUsage: () => ({ query: { range: '7d' } }),
  listOrderHistory: () => ({}),
  listProcessingOrders: () => ({}),
  getProxyList: () => ({ query: { format: 'ip:port:user:pass' } }),
  testResidentialConnection: () => ({ body: { country: 'US', type: 'dynamic' } }),
  cancelOrder: (f) => ({ body: { id: f.orderId } }),
  listReplacements: (f) => ({ params: { id: f.orderId }, query: {} }),
  // An address the order does not hold: the owner gets past the guard to a 400, and nothing changes.
  previewReplacement: (f) => ({ params: { id: f.orderId }, body: { ips: ['192.0.2.1:8000'], reason: 'blocked' } }),
  replaceIps: (f) => ({ params: { id: f.orderId }, body: { ips: ['192.0.2.1:8000'], reason: 'slow' } }),
  createCheckout: () => ({ body: { productId: 'isp_proxies', quantity: 5 } }),
  getTopUp: () => ({}),
  // Off, so that a call the guard lets through changes settings only.
  saveTopUp: () => ({ body: { enabled: false, thresholdGb: 2, amountGb: 5, monthlyCapDollars: 100, maxPerDay: 2 } }),
  startCardSetup: () => ({}),
  removeCard: () => ({}),
  listProxyUsers: () => ({}),
  createProxyUser: () => ({
    body: { name: 'matrixnew', allowance: { type: 'total', limitInKb: 1_024_000 }, authorizedIps: ['8.8.8.9'] },
  }),
  updateProxyUser: (f) => ({
    params: { id: f.proxyUserId },
    body: { note: 'changed by the matrix', allowance: { type: 'monthly', limitInKb: 2_048_000, resetDay: 3 } },
  }),
  showProxyUserPassword: (f) => ({ params: { id: f.proxyUserId } }),
  newProxyUserPassword: (f) => ({ params: { id: f.proxyUserId }, body: {} }),
  listAllowanceChanges: (f) => ({ params: { id: f.proxyUserId }, query: {} }),
  deleteProxyUser: (f) => ({ params: { id: f.deletableProxyUserId } }),
  // The sandbox's hosted pages and its clock.
  getSandboxCheckout: (f) => ({ params: { id: f.checkoutId } }),
  paySandboxCheckout: (f) => ({ params: { id: f.checkoutId }, body: { card: 'declined' } }),
  getSandboxInvoice: (f) => ({ params: { id: f.invoiceId } }),
  getSandboxBilling: (f) => ({ params: { id: f.orderId } }),
  setSandboxCard: (f) => ({ params: { id: f.orderId }, body: { card: 'ok' } }),
  getSandboxCardSetup: (f) => ({ params: { id: f.cardSetupId } }),
  saveSandboxCard: (f) => ({ params: { id: f.cardSetupId }, body: { card: 'ok' } }),
  moveSandboxClock: () => ({ body: { now: new Date(Date.now() + 60_000).toISOString() } }),
  // The administrator's console.
  listOpenAlerts: () => ({}),
  listAuditLog: () => ({ query: {} }),
  listFeatureFlags: () => ({}),
  saveFeatureFlags: () => ({ body: [{ featureName: 'isp_proxies', isEnabled: true }] }),
  getResidentialStock: () => ({}),
  getResidentialDailyUsage: () => ({}),
  listTopResidentialCustomers: () => ({}),
  setResidentialLimit: () => ({ body: { bandwidthLimit: 500_000 } }),
  getIpStock: () => ({ params: { pool: 'isp' }, query: {} }),
  downloadBurntIps: () => ({ params: { pool: 'isp' } }),
  uploadIps: () => ({ params: { pool: 'isp' }, body: { ips: ['203.0.113.77:8000:user:pass'] } }),
  listSubnets: () => ({ params: { pool: 'isp' }, query: {} }),
  swapSubnet: () => ({ params: { pool: 'isp' }, body: { subnet: '192.0.2.0/24', newEndpoints: [] } }),
  listReplacementStats: () => ({ params: { pool: 'isp' }, query: {} }),
  findCustomers: (f) => ({ query: { q: f.victimEmail } }),
  lookUpCustomer: (f) => ({ query: { email: f.victimEmail } }),
  createCustomCheckout: (f) => ({ body: { userId: f.victimId, quantity: 5 } }),
  fulfilCustomOrder: (f) => ({
    body: { userId: f.victimId, orderId: '00000000-0000-4000-8000-000000000000', ips: [] },
  }),
  listCoupons: () => ({}),
  createCoupon: () => ({
    body: {
      code: 'MATRIX10',
      name: 'Matrix ten',
      duration: 'once',
      discountType: 'percent_off',
      percentOff: 10,
      appliesToProducts: ['isp_proxies'],
    },
  }),
  listCouponRedemptions: () => ({ query: {} }),
  listRedemptionEmails: (f) => ({ params: { promoCodeId: f.promoCodeId }, query: {} }),
  downloadRedemptionEmails: (f) => ({ params: { promoCodeId: f.promoCodeId } }),
  getCouponOptions: () => ({}),
  deleteCoupon: (f) => ({ params: { couponId: f.couponId } }),
  togglePromoCode: (f) => ({ params: { promoCodeId: f.promoCodeId }, body: { active: false } }),
};

/** The contract's endpoints, keyed `METHOD url-pattern` like Fastify's route table, with the contract's access. */
const CONTRACT_MATRIX: Record<string, MatrixEntry> = Object.fromEntries(
  Object.entries(endpoints).map(([name, endpoint]) => [
    routeKeyOf(endpoint),
    {
      access: endpoint.access,
      request: (f: MatrixFixture) => {
        const { params, query, body } = SAMPLES[name as EndpointName](f) as {
          params?: Record<string, string>;
          query?: object;
          body?: unknown;
        };
        return { url: `/api${addressOf(endpoint.path, params, query)}`, payload: body };
      },
    },
  ]),
);

/**
 * Routes registered in Fastify that are not calls of the contract, keyed `METHOD url-pattern`: pages, the API
 * reference and the payment providers' webhooks (their bodies are the providers').
 */
const HAND_LISTED: Record<string, MatrixEntry> = {
  // The pages and the API reference.
  'GET /': { access: 'page', request: get('/') },
  'GET /api/docs': { access: 'public', request: get('/api/docs') },
  'GET /api/docs/json': { access: 'public', request: get('/api/docs/json') },
  'GET /api/docs/yaml': { access: 'public', request: get('/api/docs/yaml') },
  'GET /api/docs/static/*': { access: 'public', request: get('/api/docs/static/swagger-ui.css') },
  'GET /api/docs/static/index.html': { access: 'public', request: get('/api/docs/static/index.html') },
  'GET /api/docs/static/swagger-initializer.js': {
    access: 'public',
    request: get('/api/docs/static/swagger-initializer.js'),
  },

  // Payment providers.
  'POST /api/webhooks/sandbox': { access: 'signed', request: post('/api/webhooks/sandbox', { type: 'x' }) },
  'POST /api/webhooks/stripe': { access: 'signed', request: post('/api/webhooks/stripe', { type: 'x' }) },
};

/** Every route registered in Fastify, keyed `METHOD url-pattern`. */
export const ROUTE_MATRIX: Record<string, MatrixEntry> = { ...HAND_LISTED, ...CONTRACT_MATRIX };

/** better-auth's endpoints under /api/auth, keyed `METHOD /api/auth<path>` (see auth.ts for the plugins). */
export const AUTH_MATRIX: Record<string, MatrixEntry> = {
  // Flows a visitor starts.
  'POST /api/auth/sign-up/email': {
    access: 'public',
    request: post('/api/auth/sign-up/email', {
      email: 'matrix-new@example.com',
      password: strongPassword,
      name: 'New',
    }),
  },
  'POST /api/auth/sign-in/email': {
    access: 'public',
    request: (f) => ({
      url: '/api/auth/sign-in/email',
      payload: { email: f.victimEmail, password: f.victimPassword },
    }),
  },
  'POST /api/auth/sign-in/social': {
    access: 'public',
    request: post('/api/auth/sign-in/social', { provider: 'google', callbackURL: '/auth/callback' }),
  },
  'POST /api/auth/request-password-reset': {
    access: 'public',
    request: (f) => ({
      url: '/api/auth/request-password-reset',
      payload: { email: f.victimEmail, redirectTo: '/reset-password' },
    }),
  },
  'POST /api/auth/send-verification-email': {
    access: 'public',
    request: (f) => ({ url: '/api/auth/send-verification-email', payload: { email: f.victimEmail } }),
  },
  'GET /api/auth/get-session': { access: 'public', request: get('/api/auth/get-session') },
  'POST /api/auth/get-session': { access: 'public', request: post('/api/auth/get-session', {}) },
  'POST /api/auth/sign-out': { access: 'public', request: post('/api/auth/sign-out', {}) },
  'GET /api/auth/ok': { access: 'public', request: get('/api/auth/ok') },
  'GET /api/auth/error': { access: 'public', request: get('/api/auth/error') },

  // Steps that need a token, code or cookie from an earlier step.
  'GET /api/auth/callback/:id': { access: 'auth-step', request: get('/api/auth/callback/github?code=x&state=y') },
  'POST /api/auth/callback/:id': {
    access: 'auth-step',
    request: post('/api/auth/callback/github', { code: 'x', state: 'y' }),
  },
  'POST /api/auth/reset-password': {
    access: 'auth-step',
    request: post('/api/auth/reset-password', { newPassword: strongPassword, token: 'not-a-token' }),
  },
  'GET /api/auth/reset-password/:token': {
    access: 'auth-step',
    request: get('/api/auth/reset-password/not-a-token?callbackURL=/reset-password'),
  },
  'GET /api/auth/verify-email': { access: 'auth-step', request: get('/api/auth/verify-email?token=not-a-token') },
  'GET /api/auth/delete-user/callback': {
    access: 'auth-step',
    request: get('/api/auth/delete-user/callback?token=not-a-token'),
  },
  'POST /api/auth/two-factor/verify-totp': {
    access: 'auth-step',
    request: post('/api/auth/two-factor/verify-totp', { code: '123456' }),
  },
  'POST /api/auth/two-factor/send-otp': { access: 'auth-step', request: post('/api/auth/two-factor/send-otp', {}) },
  'POST /api/auth/two-factor/verify-otp': {
    access: 'auth-step',
    request: post('/api/auth/two-factor/verify-otp', { code: '123456' }),
  },
  'POST /api/auth/two-factor/verify-backup-code': {
    access: 'auth-step',
    request: post('/api/auth/two-factor/verify-backup-code', { code: 'abcde-fghij' }),
  },

  // A signed-in customer's own account.
  'POST /api/auth/verify-password': {
    access: 'customer',
    request: post('/api/auth/verify-password', { password: 'wrong-Passw0rd!' }),
  },
  'POST /api/auth/change-email': {
    access: 'customer',
    request: post('/api/auth/change-email', { newEmail: 'matrix-changed@example.com' }),
  },
  'POST /api/auth/change-password': {
    access: 'disabled',
    request: post('/api/auth/change-password', { currentPassword: 'wrong-Passw0rd!', newPassword: strongPassword }),
  },
  'POST /api/auth/update-session': { access: 'customer', request: post('/api/auth/update-session', {}) },
  'POST /api/auth/update-user': { access: 'customer', request: post('/api/auth/update-user', { name: 'Renamed' }) },
  'POST /api/auth/delete-user': {
    access: 'customer',
    request: post('/api/auth/delete-user', { password: 'wrong-Passw0rd!' }),
  },
  'GET /api/auth/list-sessions': { access: 'disabled', request: get('/api/auth/list-sessions') },
  'POST /api/auth/revoke-session': {
    access: 'customer',
    request: post('/api/auth/revoke-session', { token: 'not-a-token' }),
  },
  'POST /api/auth/revoke-sessions': { access: 'customer', request: post('/api/auth/revoke-sessions', {}) },
  'POST /api/auth/revoke-other-sessions': { access: 'customer', request: post('/api/auth/revoke-other-sessions', {}) },
  'POST /api/auth/link-social': {
    access: 'customer',
    request: post('/api/auth/link-social', { provider: 'google', callbackURL: '/dashboard/settings' }),
  },
  'GET /api/auth/list-accounts': { access: 'customer', request: get('/api/auth/list-accounts') },
  'POST /api/auth/unlink-account': {
    access: 'customer',
    request: post('/api/auth/unlink-account', { providerId: 'google', accountId: 'matrix-account' }),
  },
  'POST /api/auth/refresh-token': {
    access: 'customer',
    request: post('/api/auth/refresh-token', { accountId: 'matrix-account' }),
  },
  'POST /api/auth/get-access-token': {
    access: 'customer',
    request: post('/api/auth/get-access-token', { accountId: 'matrix-account' }),
  },
  'GET /api/auth/account-info': { access: 'customer', request: get('/api/auth/account-info?accountId=matrix-account') },
  'POST /api/auth/two-factor/get-totp-uri': {
    access: 'customer',
    request: post('/api/auth/two-factor/get-totp-uri', { password: 'wrong-Passw0rd!' }),
  },
  'POST /api/auth/two-factor/generate-backup-codes': {
    access: 'customer',
    request: post('/api/auth/two-factor/generate-backup-codes', { password: 'wrong-Passw0rd!' }),
  },
  'POST /api/auth/two-factor/enable': {
    access: 'customer',
    request: post('/api/auth/two-factor/enable', { password: 'wrong-Passw0rd!' }),
  },
  'POST /api/auth/two-factor/disable': {
    access: 'customer',
    request: post('/api/auth/two-factor/disable', { password: 'wrong-Passw0rd!' }),
  },

  // better-auth's admin plugin.
  'POST /api/auth/admin/set-role': {
    access: 'admin',
    request: (f) => ({ url: '/api/auth/admin/set-role', payload: { userId: f.victimId, role: 'user' } }),
  },
  'GET /api/auth/admin/get-user': {
    access: 'admin',
    request: (f) => ({ url: `/api/auth/admin/get-user?id=${f.victimId}` }),
  },
  'POST /api/auth/admin/create-user': {
    access: 'admin',
    request: post('/api/auth/admin/create-user', {
      email: 'matrix-made@example.com',
      password: strongPassword,
      name: 'Made',
    }),
  },
  'POST /api/auth/admin/update-user': {
    access: 'admin',
    request: (f) => ({ url: '/api/auth/admin/update-user', payload: { userId: f.victimId, data: { name: 'Victim' } } }),
  },
  'GET /api/auth/admin/list-users': { access: 'admin', request: get('/api/auth/admin/list-users') },
  'POST /api/auth/admin/list-user-sessions': {
    access: 'admin',
    request: (f) => ({ url: '/api/auth/admin/list-user-sessions', payload: { userId: f.victimId } }),
  },
  'POST /api/auth/admin/ban-user': {
    access: 'admin',
    request: (f) => ({ url: '/api/auth/admin/ban-user', payload: { userId: f.victimId } }),
  },
  'POST /api/auth/admin/unban-user': {
    access: 'admin',
    request: (f) => ({ url: '/api/auth/admin/unban-user', payload: { userId: f.victimId } }),
  },
  'POST /api/auth/admin/impersonate-user': {
    access: 'disabled',
    request: (f) => ({ url: '/api/auth/admin/impersonate-user', payload: { userId: f.victimId } }),
  },
  'POST /api/auth/admin/stop-impersonating': {
    access: 'disabled',
    request: post('/api/auth/admin/stop-impersonating', {}),
  },
  'POST /api/auth/admin/revoke-user-session': {
    access: 'admin',
    request: post('/api/auth/admin/revoke-user-session', { sessionToken: 'not-a-token' }),
  },
  'POST /api/auth/admin/revoke-user-sessions': {
    access: 'admin',
    request: (f) => ({ url: '/api/auth/admin/revoke-user-sessions', payload: { userId: f.victimId } }),
  },
  'POST /api/auth/admin/remove-user': {
    access: 'disabled',
    request: (f) => ({ url: '/api/auth/admin/remove-user', payload: { userId: f.victimId } }),
  },
  'POST /api/auth/admin/set-user-password': {
    access: 'admin',
    request: (f) => ({
      url: '/api/auth/admin/set-user-password',
      payload: { userId: f.victimId, newPassword: strongPassword },
    }),
  },
  'POST /api/auth/admin/has-permission': {
    access: 'customer',
    request: post('/api/auth/admin/has-permission', { permissions: { user: ['list'] } }),
  },
};
