import { apiKeyIdParamsSchema, apiKeyListSchema, createApiKeyRequestSchema, createdApiKeySchema } from '../api-keys.ts';
import {
  featureListSchema,
  healthResponseSchema,
  pricingResponseSchema,
  readinessResponseSchema,
} from '../catalogue.ts';
import { endpoint } from '../endpoint.ts';

/** The calls of the public site, the sign-in screens and the customer's dashboard (and their tools, with an API key). */
export const customerEndpoints = {
  // Operations: for load balancers and monitors.
  getHealth: endpoint({
    method: 'GET',
    path: '/health',
    access: 'public',
    tags: ['operations'],
    summary: 'Liveness and database reachability, for load balancers and monitors',
    status: 200,
    response: healthResponseSchema,
  }),
  getReadiness: endpoint({
    method: 'GET',
    path: '/health/ready',
    access: 'public',
    tags: ['operations'],
    summary:
      'Readiness: each dependency ok, down (with a reason) or not configured; 503 while the instance is stopping ' +
      '(SHUTDOWN_DRAIN_MS) or cannot reach its database, 200 otherwise (Redis, SMTP, the job and the gateway degrade ' +
      'the shop without stopping it)',
    status: 200,
    response: readinessResponseSchema,
  }),

  // The public catalogue. GET /api/pricing sends prepared bytes (checked against the schema when they were made).
  getPricing: endpoint({
    method: 'GET',
    path: '/pricing',
    access: 'public',
    tags: ['catalogue'],
    summary: 'Plans with unit price (US dollars) and live stock; no sign-in needed',
    status: 200,
    response: pricingResponseSchema,
  }),
  listFeatures: endpoint({
    method: 'GET',
    path: '/features',
    access: 'public',
    tags: ['catalogue'],
    summary: 'Which products can be bought (one flag per product id)',
    status: 200,
    response: featureListSchema,
  }),

  // Personal API keys: managed with a signed-in session only; a key cannot manage keys.
  listApiKeys: endpoint({
    method: 'GET',
    path: '/api-keys',
    access: 'customer',
    tags: ['api keys'],
    summary: "The signed-in customer's API keys, newest first (names and first characters, never the keys)",
    status: 200,
    response: apiKeyListSchema,
  }),
  createApiKey: endpoint({
    method: 'POST',
    path: '/api-keys',
    access: 'customer',
    tags: ['api keys'],
    summary: 'Create a named API key; the answer holds the whole key, shown this once',
    description: '409 when the customer already has 10 keys.',
    body: createApiKeyRequestSchema,
    status: 201,
    response: createdApiKeySchema,
  }),
  revokeApiKey: endpoint({
    method: 'DELETE',
    path: '/api-keys/:id',
    access: 'owner',
    tags: ['api keys'],
    summary: 'Revoke an API key: requests made with it are refused from the next one on',
    description: "404 for a key that is not the customer's or was already revoked.",
    params: apiKeyIdParamsSchema,
    status: 204,
  }),
};
