import { apiKeyIdParamsSchema, apiKeyListSchema, createApiKeyRequestSchema, createdApiKeySchema } from '../api-keys.ts';
import { endpoint } from '../endpoint.ts';

/** The calls of the public site, the sign-in screens and the customer's dashboard (and their tools, with an API key). */
export const customerEndpoints = {
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
