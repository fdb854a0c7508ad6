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
  listOrderHistory: { method: 'GET', path: '/orders/history', access: 'reader' },
  listProcessingOrders: { method: 'GET', path: '/orders/processing', access: 'reader' },
  // Plain text, one proxy a line (no JSON response schema): a link a tool loads, not a call of the web app.
  getProxyList: { method: 'GET', path: '/proxy-list', access: 'reader', keyInQuery: true },
  cancelOrder: { method: 'POST', path: '/orders/cancel', access: 'owner' },
  // Buying.
  createCheckout: { method: 'POST', path: '/checkout', access: 'customer' },
  // Personal API keys: managed with a signed-in session only; a key cannot manage keys.
  listApiKeys: { method: 'GET', path: '/api-keys', access: 'customer' },
  createApiKey: { method: 'POST', path: '/api-keys', access: 'customer' },
  revokeApiKey: { method: 'DELETE', path: '/api-keys/:id', access: 'owner' },
} as const satisfies Record<string, Route>;
