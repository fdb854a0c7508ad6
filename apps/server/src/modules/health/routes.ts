import { errorResponseSchema, healthResponseSchema } from '@storefront/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { buildInfo } from '../../lifecycle/release.ts';
import type { Lifecycle } from '../../lifecycle/shutdown.ts';
import { down, ok, type Readiness } from './readiness.ts';

const checkSchema = z.union([
  z.object({ status: z.literal('ok') }),
  z.object({ status: z.literal('down'), reason: z.string() }),
  z.object({ status: z.literal('not configured') }),
]);

const readinessResponseSchema = z.object({
  status: z.enum(['ready', 'draining', 'unavailable']),
  version: z.string(),
  checks: z.object({
    database: checkSchema,
    redis: checkSchema,
    smtp: checkSchema,
    job: checkSchema,
    gateway: checkSchema,
  }),
});

export const healthRoutes: FastifyPluginAsyncZod<{
  database: Database;
  lifecycle: Lifecycle;
  readiness: Readiness;
}> = async (app, { database, lifecycle, readiness }) => {
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

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['operations'],
        summary:
          'Readiness: each dependency ok, down (with a reason) or not configured; 503 while the instance is stopping ' +
          '(SHUTDOWN_DRAIN_MS) or cannot reach its database, 200 otherwise (Redis, SMTP, the job and the gateway degrade ' +
          'the shop without stopping it)',
        response: { 200: readinessResponseSchema, 503: readinessResponseSchema.or(errorResponseSchema) },
      },
    },
    async (_request, reply) => {
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
  );
};
