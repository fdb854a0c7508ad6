import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { routeOf } from '../../lib/route.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.ts';

/** /api/api-keys: the customer manages their keys with a signed-in session only; a key cannot manage keys. */
export const apiKeyRoutes: FastifyPluginAsync<{ db: Db; guards: Guards }> = async (app, { db, guards }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);

  api.route({
    ...routeOf(endpoints.listApiKeys, guards),
    handler: async (request) => listApiKeys({ db, userId: signedInOf(request).user.id }),
  });

  api.route({
    ...routeOf(endpoints.createApiKey, guards),
    handler: async (request, reply) => {
      const created = await createApiKey({ db, userId: signedInOf(request).user.id, name: request.body.name });
      return reply.status(201).send(created);
    },
  });

  api.route({
    ...routeOf(endpoints.revokeApiKey, guards),
    handler: async (request, reply) => {
      await revokeApiKey({ db, userId: signedInOf(request).user.id, id: request.params.id });
      return reply.status(204).send();
    },
  });
};
