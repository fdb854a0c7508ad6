import type { Route } from '../endpoint.ts';

/**
 * Every call of the product's API by name: its address under /api and who may call it. Without zod, so that a page
 * calls the API (apps/web/src/lib/api-client.ts) without loading the schemas; each call's schemas and reference text are
 * beside it in customer.ts, admin.ts and sandbox.ts (`endpoint(routes.name, {...})`), and index.ts checks that every
 * route has its endpoint and every endpoint its route.
 */
export const routes = {
  // The public site, the sign-in screens and the customer's dashboard (and their tools, with an API key).
  // Operations: for load balancers and monitors.
  getHealth: { method: 'GET', path: '/health', access: 'public' },
  getReadiness: { method: 'GET', path: '/health/ready', access: 'public' },
  // The public catalogue. GET /api/pricing sends prepared bytes (checked against the schema when they were made).
  getPricing: { method: 'GET', path: '/pricing', access: 'public' },
  listFeatures: { method: 'GET', path: '/features', access: 'public' },
  // The signed-in account.
  checkSession: { method: 'GET', path: '/user/auth', access: 'public' },
  changePassword: { method: 'POST', path: '/user/password', access: 'customer' },
  // Our own call beside better-auth's under /api/auth: the mailed link leads to a page whose button posts the token here.
  confirmEmail: { method: 'POST', path: '/auth/confirm-email', access: 'public' },
  // The residential gateway's settings: with a signed-in session only, never an API key.
  getAuthorizedIps: { method: 'GET', path: '/user/authorized-ips', access: 'customer' },
  saveAuthorizedIps: { method: 'PUT', path: '/user/authorized-ips', access: 'customer' },
  getPreferences: { method: 'GET', path: '/user/preferences', access: 'customer' },
  savePreferences: { method: 'PUT', path: '/user/preferences', access: 'customer' },
  // The customer's own reads: a session or an API key. GET /api/orders sends prepared bytes with an ETag.
  listOrders: { method: 'GET', path: '/orders', access: 'reader' },
  listOrderUsage: { method: 'GET', path: '/orders/usage', access: 'reader' },
  getDailyUsage: { method: 'GET', path: '/orders/usage/daily', access: 'reader' },
  getUsage: { method: 'GET', path: '/usage', access: 'reader' },
  listOrderHistory: { method: 'GET', path: '/orders/history', access: 'reader' },
  listProcessingOrders: { method: 'GET', path: '/orders/processing', access: 'reader' },
  // Plain text, one proxy a line (no JSON response schema): a link a tool loads, not a call of the web app.
  getProxyList: { method: 'GET', path: '/proxy-list', access: 'reader', keyInQuery: true },
  // One request through the gateway with the customer's own line: a button of the dashboard, a session only.
  testResidentialConnection: { method: 'POST', path: '/orders/usage/test', access: 'customer' },
  cancelOrder: { method: 'POST', path: '/orders/cancel', access: 'owner' },
  // Replacing bad IPs of an order: its history and allowance are a read (a key may make it), replacing is not.
  listReplacements: { method: 'GET', path: '/orders/:id/replacements', access: 'reader' },
  previewReplacement: { method: 'POST', path: '/orders/:id/replacements/preview', access: 'owner' },
  replaceIps: { method: 'POST', path: '/orders/:id/replacements', access: 'owner' },
  // Buying.
  createCheckout: { method: 'POST', path: '/checkout', access: 'customer' },
  // Automatic top-up of residential data: a key reads the settings and history; changing them takes a session.
  getTopUp: { method: 'GET', path: '/residential/top-up', access: 'reader' },
  saveTopUp: { method: 'PUT', path: '/residential/top-up', access: 'customer' },
  startCardSetup: { method: 'POST', path: '/residential/top-up/card', access: 'customer' },
  removeCard: { method: 'DELETE', path: '/residential/top-up/card', access: 'customer' },
  // Proxy users: a key reads them (list, allowance history); creating, changing and deleting take a signed-in session.
  listProxyUsers: { method: 'GET', path: '/proxy-users', access: 'reader' },
  createProxyUser: { method: 'POST', path: '/proxy-users', access: 'customer' },
  updateProxyUser: { method: 'PATCH', path: '/proxy-users/:id', access: 'owner' },
  showProxyUserPassword: { method: 'GET', path: '/proxy-users/:id/password', access: 'owner' },
  newProxyUserPassword: { method: 'POST', path: '/proxy-users/:id/password', access: 'owner' },
  listAllowanceChanges: { method: 'GET', path: '/proxy-users/:id/allowance-changes', access: 'reader' },
  deleteProxyUser: { method: 'DELETE', path: '/proxy-users/:id', access: 'owner' },
  // Personal API keys: managed with a signed-in session only; a key cannot manage keys.
  listApiKeys: { method: 'GET', path: '/api-keys', access: 'customer' },
  createApiKey: { method: 'POST', path: '/api-keys', access: 'customer' },
  revokeApiKey: { method: 'DELETE', path: '/api-keys/:id', access: 'owner' },

  // The administrator's console: every call under /admin/, for administrators only.
  // The alerts and the audit log.
  listOpenAlerts: { method: 'GET', path: '/admin/alerts', access: 'admin' },
  listAuditLog: { method: 'GET', path: '/admin/audit-log', access: 'admin' },
  // The feature flags.
  listFeatureFlags: { method: 'GET', path: '/admin/features', access: 'admin' },
  saveFeatureFlags: { method: 'POST', path: '/admin/features', access: 'admin' },
  // The residential pool and the pools of static IPs.
  getResidentialStock: { method: 'GET', path: '/admin/stocks/residential', access: 'admin' },
  getResidentialDailyUsage: { method: 'GET', path: '/admin/stocks/residential/daily', access: 'admin' },
  listTopResidentialCustomers: { method: 'GET', path: '/admin/stocks/residential/top-customers', access: 'admin' },
  setResidentialLimit: { method: 'PUT', path: '/admin/stocks/residential', access: 'admin' },
  getIpStock: { method: 'GET', path: '/admin/stocks/:pool', access: 'admin' },
  downloadBurntIps: { method: 'GET', path: '/admin/stocks/:pool/burnt.txt', access: 'admin' },
  uploadIps: { method: 'POST', path: '/admin/stocks/:pool/upload', access: 'admin' },
  listSubnets: { method: 'GET', path: '/admin/ips/:pool/subnets', access: 'admin' },
  swapSubnet: { method: 'POST', path: '/admin/ips/:pool/subnets/swap', access: 'admin' },
  listReplacementStats: { method: 'GET', path: '/admin/ips/:pool/replacements', access: 'admin' },
  // Custom PK1 orders: finding the customer, the checkout link and fulfilment.
  findCustomers: { method: 'GET', path: '/admin/users/search', access: 'admin' },
  lookUpCustomer: { method: 'GET', path: '/admin/users', access: 'admin' },
  createCustomCheckout: { method: 'POST', path: '/admin/checkout/pk1/custom', access: 'admin' },
  fulfilCustomOrder: { method: 'POST', path: '/admin/orders/fulfill', access: 'admin' },
  // Coupons and their promotion codes.
  listCoupons: { method: 'GET', path: '/admin/coupons', access: 'admin' },
  listCouponRedemptions: { method: 'GET', path: '/admin/coupons/redemptions', access: 'admin' },
  listRedemptionEmails: { method: 'GET', path: '/admin/coupons/redemptions/:promoCodeId/emails', access: 'admin' },
  downloadRedemptionEmails: {
    method: 'GET',
    path: '/admin/coupons/redemptions/:promoCodeId/emails.csv',
    access: 'admin',
  },
  getCouponOptions: { method: 'GET', path: '/admin/coupons/options', access: 'admin' },
  createCoupon: { method: 'POST', path: '/admin/coupons', access: 'admin' },
  deleteCoupon: { method: 'DELETE', path: '/admin/coupons/:couponId', access: 'admin' },
  togglePromoCode: { method: 'PATCH', path: '/admin/coupons/:promoCodeId/toggle', access: 'admin' },

  // The sandbox payment provider's hosted pages and its clock (only when the sandbox takes the payments).
  getSandboxCheckout: { method: 'GET', path: '/sandbox/checkout/:id', access: 'owner' },
  paySandboxCheckout: { method: 'POST', path: '/sandbox/checkout/:id/pay', access: 'owner' },
  getSandboxInvoice: { method: 'GET', path: '/sandbox/invoices/:id', access: 'capability' },
  getSandboxBilling: { method: 'GET', path: '/sandbox/orders/:id/billing', access: 'owner' },
  setSandboxCard: { method: 'POST', path: '/sandbox/orders/:id/card', access: 'owner' },
  getSandboxCardSetup: { method: 'GET', path: '/sandbox/card-setups/:id', access: 'owner' },
  saveSandboxCard: { method: 'POST', path: '/sandbox/card-setups/:id', access: 'owner' },
  moveSandboxClock: { method: 'POST', path: '/admin/sandbox/clock', access: 'admin' },
} as const satisfies Record<string, Route>;
