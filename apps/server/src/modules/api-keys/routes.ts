import {
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
} from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.ts';

/** /api/api-keys: the customer manages their keys with a signed-in session only; a key cannot manage keys. */
export const apiKeyRoutes: FastifyPluginAsync<{ db: Db; guards: Guards }> = async (app, { db, guards }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', guards.requireUser);
  api.addHook('onSend', privateNoStore);

  api.get(
    '/api-keys',
    {
      schema: {
        tags: ['api keys'],
        summary: "The signed-in customer's API keys, newest first (names and first characters, never the keys)",
        response: { 200: apiKeyListSchema },
      },
    },
    async (request) => listApiKeys({ db, userId: signedInOf(request).user.id }),
  );

  api.post(
    '/api-keys',
    {
      schema: {
        tags: ['api keys'],
        summary: 'Create a named API key; the answer holds the whole key, shown this once',
        description: '409 when the customer already has 10 keys.',
        body: createApiKeyRequestSchema,
        response: { 201: createdApiKeySchema },
      },
    },
    async (request, reply) => {
      const created = await createApiKey({ db, userId: signedInOf(request).user.id, name: request.body.name });
      return reply.status(201).send(created);
    },
  );

  api.delete(
    '/api-keys/:id',
    {
      schema: {
        tags: ['api keys'],
        summary: 'Revoke an API key: requests made with it are refused from the next one on',
        description: "404 for a key that is not the customer's or was already revoked.",
        params: apiKeyIdParamsSchema,
      },
    },
    async (request, reply) => {
      await revokeApiKey({ db, userId: signedInOf(request).user.id, id: request.params.id });
      return reply.status(204).send();
    },
  );
};
