import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import { down, ok, type Readiness } from '../../lib/readiness.ts';
import { routeOf } from '../../lib/route.ts';
import { buildInfo } from '../../lifecycle/release.ts';
import type { Lifecycle } from '../../lifecycle/shutdown.ts';

export const healthRoutes: FastifyPluginAsyncZod<{
  database: Database;
  lifecycle: Lifecycle;
  readiness: Readiness;
}> = async (app, { database, lifecycle, readiness }) => {
  // Both answer 503 with the same body when the instance cannot serve (or an error's message): the reference says so.
  app.route({
    ...routeOf(endpoints.getHealth),
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const up = await database.ping();
      return reply
        .status(up ? 200 : 503)
        .send({ status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down' } as const);
    },
  });

  app.route({
    ...routeOf(endpoints.getReadiness),
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const up = await database.ping();
      const status = lifecycle.draining ? 'draining' : up ? 'ready' : 'unavailable';
      return reply.status(status === 'ready' ? 200 : 503).send({
        status,
        version: buildInfo().version,
        checks: {
          database: up ? ok : down('the database did not answer'),
          redis: readiness.redis(),
          smtp: readiness.smtp(),
          job: readiness.job(),
          gateway: readiness.gateway(),
        },
      });
    },
  });
};
