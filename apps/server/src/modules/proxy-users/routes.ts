import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { routeOf } from '../../lib/route.ts';
import { type Guards, readerOf, signedInOf } from '../auth/guards.ts';
import { readRouteOf } from '../auth/read-route.ts';
import { checkedIps } from '../customer-settings/authorized-ips.ts';
import { listAllowanceChanges } from './allowance-history.ts';
import { createProxyUser } from './create-proxy-user.ts';
import { deleteProxyUser } from './delete-proxy-user.ts';
import { listProxyUsers } from './list-proxy-users.ts';
import { newProxyUserPassword } from './new-proxy-user-password.ts';
import { showProxyUserPassword } from './proxy-user-password.ts';
import { updateProxyUser } from './update-proxy-user.ts';

/**
 * /api/proxy-users: a session or an API key reads them (the list, an allowance's history); creating, changing, showing
 * a password and deleting take a signed-in session. Passwords travel in bodies only, which are never logged.
 */
export const proxyUserRoutes: FastifyPluginAsync<{
  db: Db;
  guards: Guards;
  allowPrivateIps: boolean;
  rateLimit: RateLimitPluginOptions;
  keyRateLimitPerMinute: number;
}> = async (app, { db, guards, allowPrivateIps, rateLimit: rateLimitOptions, keyRateLimitPerMinute }) => {
  await app.register(rateLimit, rateLimitOptions);
  // A key's reads count against its limit here as on the orders' reads.
  const readRoute = readRouteOf(app, guards, keyRateLimitPerMinute);
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);
  const ips = (values: string[] | undefined) =>
    values === undefined ? undefined : checkedIps(values, allowPrivateIps);

  api.route({
    ...readRoute(endpoints.listProxyUsers),
    handler: async (request) => listProxyUsers({ db, userId: readerOf(request) }),
  });

  api.route({
    ...routeOf(endpoints.createProxyUser, guards),
    handler: async (request, reply) => {
      const { user } = signedInOf(request);
      const created = await createProxyUser({
        db,
        userId: user.id,
        changedBy: user.email,
        input: { ...request.body, authorizedIps: ips(request.body.authorizedIps) },
      });
      return reply.status(201).send(created);
    },
  });

  api.route({
    ...routeOf(endpoints.updateProxyUser, guards),
    handler: async (request) => {
      const { user } = signedInOf(request);
      return updateProxyUser({
        db,
        userId: user.id,
        changedBy: user.email,
        id: request.params.id,
        change: { ...request.body, authorizedIps: ips(request.body.authorizedIps) },
      });
    },
  });

  api.route({
    ...routeOf(endpoints.showProxyUserPassword, guards),
    handler: async (request) =>
      showProxyUserPassword({ db, userId: signedInOf(request).user.id, id: request.params.id }),
  });

  api.route({
    ...routeOf(endpoints.newProxyUserPassword, guards),
    handler: async (request) =>
      newProxyUserPassword({
        db,
        userId: signedInOf(request).user.id,
        id: request.params.id,
        password: request.body.password,
      }),
  });

  api.route({
    ...readRoute(endpoints.listAllowanceChanges),
    handler: async (request) =>
      listAllowanceChanges({ db, userId: readerOf(request), id: request.params.id, before: request.query.before }),
  });

  api.route({
    ...routeOf(endpoints.deleteProxyUser, guards),
    handler: async (request, reply) => {
      await deleteProxyUser({ db, userId: signedInOf(request).user.id, id: request.params.id });
      return reply.status(204).send();
    },
  });
};
