import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { canonicalIp } from '../../lib/ip-address.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { routeOf } from '../../lib/route.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { checkedIps, readAuthorizedIps, saveAuthorizedIps } from './authorized-ips.ts';
import { readPreferences, savePreferences } from './preferences.ts';

/**
 * /api/user/authorized-ips and /api/user/preferences: with a signed-in session only, never an API key (a key
 * reads; these change who may use the customer's data).
 */
export const customerSettingsRoutes: FastifyPluginAsync<{ db: Db; guards: Guards; allowPrivateIps: boolean }> = async (
  app,
  { db, guards, allowPrivateIps },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);
  const answer = async (request: FastifyRequest) => ({
    ...(await readAuthorizedIps(db, signedInOf(request).user.id)),
    currentIp: canonicalIp(request.ip) ?? null,
  });

  api.route({ ...routeOf(endpoints.getAuthorizedIps, guards), handler: answer });

  api.route({
    ...routeOf(endpoints.saveAuthorizedIps, guards),
    handler: async (request) => {
      const ips = checkedIps(request.body.ips, allowPrivateIps);
      await saveAuthorizedIps({
        db,
        userId: signedInOf(request).user.id,
        ips,
        onlyFromTheseIps: request.body.onlyFromTheseIps,
      });
      return answer(request);
    },
  });

  api.route({
    ...routeOf(endpoints.getPreferences, guards),
    handler: async (request) => readPreferences(db, signedInOf(request).user.id),
  });

  api.route({
    ...routeOf(endpoints.savePreferences, guards),
    handler: async (request) => savePreferences(db, signedInOf(request).user.id, request.body),
  });
};
