import { errorResponseSchema, healthResponseSchema } from '@storefront/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database reachability, for load balancers and monitors',
        response: { 200: healthResponseSchema, 503: healthResponseSchema.or(errorResponseSchema) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const up = await database.ping();
      return reply
        .status(up ? 200 : 503)
        .send({ status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down' } as const);
    },
  );
};
