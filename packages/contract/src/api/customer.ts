import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import {
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
  proxyListQuerySchema,
} from '../schemas/api-keys.ts';
import {
  authCheckResponseSchema,
  changePasswordRequestSchema,
  confirmEmailRequestSchema,
  confirmEmailResponseSchema,
  passwordChangedSchema,
} from '../schemas/auth.ts';
import {
  errorResponseSchema,
  featureListSchema,
  healthResponseSchema,
  pricingResponseSchema,
  readinessResponseSchema,
} from '../schemas/catalogue.ts';
import {
  checkoutFailureSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  orderHistorySchema,
} from '../schemas/checkout.ts';
import {
  authorizedIpsRequestSchema,
  authorizedIpsSchema,
  preferencesRequestSchema,
  preferencesSchema,
} from '../schemas/customer-settings.ts';
import {
  cancelOrderRequestSchema,
  connectionTestRequestSchema,
  connectionTestSchema,
  dailyUsageSchema,
  orderListSchema,
  orderUsageListSchema,
  processingOrderListSchema,
} from '../schemas/orders.ts';
import {
  allowanceHistoryQuerySchema,
  allowanceHistorySchema,
  createdProxyUserSchema,
  createProxyUserRequestSchema,
  newProxyUserPasswordRequestSchema,
  proxyUserIdParamsSchema,
  proxyUserListSchema,
  proxyUserPasswordAnswerSchema,
  proxyUserSchema,
  updateProxyUserRequestSchema,
} from '../schemas/proxy-users.ts';
import {
  replacementHistoryQuerySchema,
  replacementHistorySchema,
  replacementOrderParamsSchema,
  replacementPreviewSchema,
  replacementRequestSchema,
  replacementResultSchema,
} from '../schemas/replacements.ts';
import { topUpCardPageSchema, topUpSchema, topUpSettingsRequestSchema } from '../schemas/top-up.ts';
import { usageQuerySchema, usageReportSchema } from '../schemas/usage.ts';
import { routes } from './routes.ts';

/** The calls of the public site, the sign-in screens and the customer's dashboard (and their tools, with an API key). */
export const customerEndpoints = {
  // Operations: for load balancers and monitors.
  getHealth: endpoint(routes.getHealth, {
    tags: ['operations'],
    summary: 'Liveness and database reachability, for load balancers and monitors',
    status: 200,
    response: healthResponseSchema,
    // The same body when the database does not answer (or an error's message).
    answers: { 503: healthResponseSchema.or(errorResponseSchema) },
  }),
  getReadiness: endpoint(routes.getReadiness, {
    tags: ['operations'],
    summary:
      'Readiness: each dependency ok, down (with a reason) or not configured; 503 while the instance is stopping ' +
      '(SHUTDOWN_DRAIN_MS) or cannot reach its database, 200 otherwise (Redis, SMTP, the job and the gateway degrade ' +
      'the shop without stopping it)',
    status: 200,
    response: readinessResponseSchema,
    answers: { 503: readinessResponseSchema.or(errorResponseSchema) },
  }),

  // The public catalogue. GET /api/pricing sends prepared bytes (checked against the schema when they were made).
  getPricing: endpoint(routes.getPricing, {
    tags: ['catalogue'],
    summary: 'Plans with unit price (US dollars) and live stock; no sign-in needed',
    status: 200,
    response: pricingResponseSchema,
  }),
  listFeatures: endpoint(routes.listFeatures, {
    tags: ['catalogue'],
    summary: 'Which products can be bought (one flag per product id)',
    status: 200,
    response: featureListSchema,
  }),

  // The signed-in account.
  checkSession: endpoint(routes.checkSession, {
    tags: ['account'],
    summary: 'Who is signed in, and their role',
    description:
      'Accepts the session cookie or `Authorization: Bearer <token>`. Without a session: authenticated false.',
    status: 200,
    response: authCheckResponseSchema,
  }),
  changePassword: endpoint(routes.changePassword, {
    tags: ['account'],
    summary: 'Set a new password and sign out every other session',
    description:
      "With a session signed in within the last 10 minutes, the new password alone; with an older one, `currentPassword` too, and `code` (the authenticator app's) when two-factor is on (400 saying which is missing or wrong). An account made with a social sign-in gets a password only from a session of the last 10 minutes. The owner is e-mailed, with a link to reset the password if it was not them. Counted per account: 429 after 8 tries in 10 minutes.",
    body: changePasswordRequestSchema,
    status: 200,
    response: passwordChangedSchema,
  }),
  // Our own call beside better-auth's under /api/auth: the mailed link leads to a page whose button posts the token here.
  confirmEmail: endpoint(routes.confirmEmail, {
    tags: ['account'],
    summary: "Confirm an e-mail address with the mailed link's token; a first confirmation signs the customer in",
    description:
      '400 for a missing, bad or expired token; 403 for a post from another site. Counted by the sign-in rate limit.',
    body: confirmEmailRequestSchema,
    status: 200,
    response: confirmEmailResponseSchema,
  }),

  // The residential gateway's settings: with a signed-in session only, never an API key.
  getAuthorizedIps: endpoint(routes.getAuthorizedIps, {
    tags: ['account'],
    summary: 'Addresses whose connections to the residential gateway need no credentials',
    status: 200,
    response: authorizedIpsSchema,
  }),
  saveAuthorizedIps: endpoint(routes.saveAuthorizedIps, {
    tags: ['account'],
    summary: 'Replace the authorised IPs (at most 10 single addresses) and, when given, "only from these IPs"',
    description:
      '400 for anything but a single public IPv4 or IPv6 address (loopback, private and reserved ranges are refused), 409 for an address another customer authorised. The gateway uses the change within GATEWAY_CACHE_MS.',
    body: authorizedIpsRequestSchema,
    status: 200,
    response: authorizedIpsSchema,
  }),
  getPreferences: endpoint(routes.getPreferences, {
    tags: ['account'],
    summary: "The customer's switches: usage e-mails, and domains in usage statistics",
    status: 200,
    response: preferencesSchema,
  }),
  savePreferences: endpoint(routes.savePreferences, {
    tags: ['account'],
    summary:
      'Turn the usage e-mails (80 % and 100 % of the residential data), or the recording of domains, on or off; ' +
      'what is not sent stays as it is',
    body: preferencesRequestSchema,
    status: 200,
    response: preferencesSchema,
  }),

  // The customer's own reads: a session or an API key. GET /api/orders sends prepared bytes with an ETag.
  listOrders: endpoint(routes.listOrders, {
    tags: ['orders', 'api keys'],
    summary: "The signed-in customer's orders, newest first",
    description: 'Carries an ETag: sent back in If-None-Match, it is answered 304 while the orders are unchanged.',
    status: 200,
    response: orderListSchema,
    answers: { 304: z.void().describe('The orders are as in the version sent') },
  }),
  listOrderUsage: endpoint(routes.listOrderUsage, {
    tags: ['orders', 'api keys'],
    summary: "The signed-in customer's residential data and credentials",
    status: 200,
    response: orderUsageListSchema,
  }),
  getDailyUsage: endpoint(routes.getDailyUsage, {
    tags: ['orders', 'api keys'],
    summary: 'The residential data the gateway carried for the signed-in customer per day, last 30 days',
    status: 200,
    response: dailyUsageSchema,
  }),
  getUsage: endpoint(routes.getUsage, {
    tags: ['orders', 'api keys'],
    summary:
      'Residential usage statistics for a range: totals, a series by hour or day, and the use by proxy user, country ' +
      'and domain',
    query: usageQuerySchema,
    status: 200,
    response: usageReportSchema,
  }),
  listOrderHistory: endpoint(routes.listOrderHistory, {
    tags: ['orders', 'api keys'],
    summary: "The signed-in customer's payments with their invoices, newest first",
    description: 'total is in cents of currency; stripe_id is the invoice id of the payment provider.',
    status: 200,
    response: orderHistorySchema,
  }),
  listProcessingOrders: endpoint(routes.listProcessingOrders, {
    tags: ['orders', 'api keys'],
    summary: "The signed-in customer's paid residential orders waiting for data",
    status: 200,
    response: processingOrderListSchema,
  }),
  // Plain text, one proxy a line (no JSON response schema): a link a tool loads, not a call of the web app.
  getProxyList: endpoint(routes.getProxyList, {
    tags: ['api keys'],
    summary: "The customer's current proxies as text, one a line, for a tool that loads its list by URL",
    description: [
      'The IPs of the live orders (delivered or processing), newest order first, in `format`. Without `product`,',
      'every Elite ISP and PK1 proxy. With `product=residential_proxies`, `count` generated lines with `country`',
      'and `type`, each with a new session id. A swap or a renewal shows at the next load.',
      '',
      '```',
      "curl 'https://example.com/api/proxy-list?key=psk_YOUR_KEY&product=pk1_isp_proxies&format=socks5://user:pass@ip:port'",
      '```',
    ].join('\n'),
    query: proxyListQuerySchema,
    status: 200,
    // Plain text (text/plain), not JSON: the handler sends the lines as they are.
    response: z.string(),
  }),
  testResidentialConnection: endpoint(routes.testResidentialConnection, {
    tags: ['orders'],
    summary: "Send one request through the residential gateway with the customer's own line, to the test address",
    description: [
      "The line is the list generator's: the customer's residential credentials, `country` and `type`, and a new session",
      'id. The answer says where it came out (the address and country the test address saw) and how long it took, or',
      "why it did not: the gateway's refusal in its own words. 404 without residential data, or when the shop has no",
      'test address (GATEWAY_TEST_URL); counted per customer: 429 after 5 tests in a minute.',
    ].join(' '),
    body: connectionTestRequestSchema,
    status: 200,
    response: connectionTestSchema,
  }),
  cancelOrder: endpoint(routes.cancelOrder, {
    tags: ['orders'],
    summary: 'Cancel an order at the end of its billing cycle; answers the updated order list',
    description:
      "404 for an order that is not the customer's; 409 for an expired, already cancelled or residential order.",
    body: cancelOrderRequestSchema,
    status: 200,
    response: orderListSchema,
  }),
  listReplacements: endpoint(routes.listReplacements, {
    tags: ['orders', 'api keys'],
    summary: "An Elite ISP or PK1 order's IP replacements, newest first, and its allowance this billing period",
    description:
      "A page at a time (after=next). 404 for an order that is not the customer's. An API key may read it but not replace.",
    params: replacementOrderParamsSchema,
    query: replacementHistoryQuerySchema,
    status: 200,
    response: replacementHistorySchema,
  }),
  previewReplacement: endpoint(routes.previewReplacement, {
    tags: ['orders'],
    summary: 'What replacing these IPs would do: how much of the allowance it uses and how many get a new IP at once',
    description:
      "Changes nothing. 404 for an order that is not the customer's; 400 for an IP not in the order; 409 for an order that is not active.",
    params: replacementOrderParamsSchema,
    body: replacementRequestSchema,
    status: 200,
    response: replacementPreviewSchema,
  }),
  replaceIps: endpoint(routes.replaceIps, {
    tags: ['orders'],
    summary: "Replace IPs of an active Elite ISP or PK1 order with new ones from the product's pool",
    description: [
      'Each IP gets the oldest free IP of the pool outside the subnets whose burnt IPs the customer gave back; the old',
      'one is burnt and waits for its subnet to be swapped. Without stock a replacement waits, the old IP kept meanwhile,',
      "and is made when IPs arrive. The order's list, list links and downloads show the new lines at once. Allowance:",
      'IP_REPLACEMENT_PERCENT of the IPs per billing period, at least 1; 409 past it, for an IP already waiting, or an',
      "order that is not active; 400 for an IP not in the order; 404 for an order that is not the customer's.",
    ].join(' '),
    params: replacementOrderParamsSchema,
    body: replacementRequestSchema,
    status: 200,
    response: replacementResultSchema,
  }),

  // Buying.
  createCheckout: endpoint(routes.createCheckout, {
    tags: ['checkout'],
    summary: 'Start a checkout: creates the order awaiting payment and answers the payment page URL',
    description:
      'quantity is one of the product bundles, or 1 to 10000 for a custom amount (not PK1); coupon is a promo code.',
    body: checkoutRequestSchema,
    status: 200,
    response: checkoutResponseSchema,
    // Every refusal has the checkout's own shape, as the Purchase page reads it.
    answers: { '4xx': checkoutFailureSchema, '5xx': checkoutFailureSchema },
  }),

  // Automatic top-up of residential data: a key reads the settings and history; changing them takes a session.
  getTopUp: endpoint(routes.getTopUp, {
    tags: ['residential', 'api keys'],
    summary: 'Automatic top-up: the settings, the saved card, what this month has spent and the latest top-ups',
    status: 200,
    response: topUpSchema,
  }),
  saveTopUp: endpoint(routes.saveTopUp, {
    tags: ['residential'],
    summary: 'Turn automatic top-up on or off and set its threshold, amount and caps',
    description:
      'Turning it on needs a saved card (POST /api/residential/top-up/card) and a monthly cap of at least one top-up. Turning it on again after it switched itself off starts the count of failed payments afresh.',
    body: topUpSettingsRequestSchema,
    status: 200,
    response: topUpSchema,
  }),
  startCardSetup: endpoint(routes.startCardSetup, {
    tags: ['residential'],
    summary:
      "Open the payment provider's page where the customer saves a card for top-ups (no card data reaches the shop)",
    status: 200,
    response: topUpCardPageSchema,
  }),
  removeCard: endpoint(routes.removeCard, {
    tags: ['residential'],
    summary: 'Forget the saved card (detached at the provider); automatic top-up turns off',
    status: 200,
    response: topUpSchema,
  }),

  // Proxy users: a key reads them (list, allowance history); creating, changing and deleting take a signed-in session.
  listProxyUsers: endpoint(routes.listProxyUsers, {
    tags: ['proxy users', 'api keys'],
    summary: "The signed-in customer's proxy users, oldest first (never their passwords)",
    status: 200,
    response: proxyUserListSchema,
  }),
  createProxyUser: endpoint(routes.createProxyUser, {
    tags: ['proxy users'],
    summary:
      'Create a proxy user: gateway credentials of its own on the residential data; the answer holds its password',
    description: [
      '400 in words for a name that is not 1 to 24 lower-case letters and digits, a password that is not 8 to 32',
      'letters and digits, a bad allowance, country, connection limit or IP; 409 for a name the account already has,',
      'an IP another user holds, or a 101st proxy user; 404 without residential data.',
    ].join(' '),
    body: createProxyUserRequestSchema,
    status: 201,
    response: createdProxyUserSchema,
  }),
  updateProxyUser: endpoint(routes.updateProxyUser, {
    tags: ['proxy users'],
    summary: 'Change a proxy user: name, note, paused, allowance, countries, connection limit, authorised IPs',
    description: [
      'Only what is given changes. A cap below what it used this period is refused (400); each change of the',
      "allowance is kept in its history. 404 for a proxy user that is not the customer's. The gateway uses the change",
      'within GATEWAY_CACHE_MS.',
    ].join(' '),
    params: proxyUserIdParamsSchema,
    body: updateProxyUserRequestSchema,
    status: 200,
    response: proxyUserSchema,
  }),
  showProxyUserPassword: endpoint(routes.showProxyUserPassword, {
    tags: ['proxy users'],
    summary: "A proxy user's password, on request",
    params: proxyUserIdParamsSchema,
    status: 200,
    response: proxyUserPasswordAnswerSchema,
  }),
  newProxyUserPassword: endpoint(routes.newProxyUserPassword, {
    tags: ['proxy users'],
    summary: 'Give a proxy user a new password (generated, or the one sent); the answer holds it',
    params: proxyUserIdParamsSchema,
    body: newProxyUserPasswordRequestSchema,
    status: 200,
    response: proxyUserPasswordAnswerSchema,
  }),
  listAllowanceChanges: endpoint(routes.listAllowanceChanges, {
    tags: ['proxy users', 'api keys'],
    summary: "Changes of a proxy user's allowance, newest first, 20 a page",
    params: proxyUserIdParamsSchema,
    query: allowanceHistoryQuerySchema,
    status: 200,
    response: allowanceHistorySchema,
  }),
  deleteProxyUser: endpoint(routes.deleteProxyUser, {
    tags: ['proxy users'],
    summary:
      'Delete a proxy user: the gateway refuses it at once; its usage stays under its name, and the name is free',
    params: proxyUserIdParamsSchema,
    status: 204,
  }),

  // Personal API keys: managed with a signed-in session only; a key cannot manage keys.
  listApiKeys: endpoint(routes.listApiKeys, {
    tags: ['api keys'],
    summary: "The signed-in customer's API keys, newest first (names and first characters, never the keys)",
    status: 200,
    response: apiKeyListSchema,
  }),
  createApiKey: endpoint(routes.createApiKey, {
    tags: ['api keys'],
    summary: 'Create a named API key; the answer holds the whole key, shown this once',
    description: '409 when the customer already has 10 keys.',
    body: createApiKeyRequestSchema,
    status: 201,
    response: createdApiKeySchema,
  }),
  revokeApiKey: endpoint(routes.revokeApiKey, {
    tags: ['api keys'],
    summary: 'Revoke an API key: requests made with it are refused from the next one on',
    description: "404 for a key that is not the customer's or was already revoked.",
    params: apiKeyIdParamsSchema,
    status: 204,
  }),
};
