import { authorizedIpsRequestSchema, authorizedIpsSchema, preferencesSchema } from '@storefront/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { canonicalIp } from '../../lib/ip-address.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { checkedIps, readAuthorizedIps, saveAuthorizedIps } from './authorized-ips.ts';
import { readPreferences, savePreferences } from './preferences.ts';

/**
 * /api/user/authorized-ips and /api/user/preferences (issue 38): with a signed-in session only, never an API key (a key
 * reads; these change who may use the customer's data).
 */
export const customerSettingsRoutes: FastifyPluginAsync<{ db: Db; guards: Guards; allowPrivateIps: boolean }> = async (
  app,
  { db, guards, allowPrivateIps },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', guards.requireUser);
  api.addHook('onSend', privateNoStore);
  const answer = async (request: FastifyRequest) => ({
    ...(await readAuthorizedIps(db, signedInOf(request).user.id)),
    currentIp: canonicalIp(request.ip) ?? null,
  });

  api.get(
    '/user/authorized-ips',
    {
      schema: {
        tags: ['account'],
        summary: 'Addresses whose connections to the residential gateway need no credentials',
        response: { 200: authorizedIpsSchema },
      },
    },
    answer,
  );

  api.put(
    '/user/authorized-ips',
    {
      schema: {
        tags: ['account'],
        summary: 'Replace the authorised IPs (at most 10 single addresses) and, when given, "only from these IPs"',
        description:
          '400 for anything but a single public IPv4 or IPv6 address (loopback, private and reserved ranges are refused), 409 for an address another customer authorised. The gateway uses the change within GATEWAY_CACHE_MS.',
        body: authorizedIpsRequestSchema,
        response: { 200: authorizedIpsSchema },
      },
    },
    async (request) => {
      const ips = checkedIps(request.body.ips, allowPrivateIps);
      await saveAuthorizedIps({
        db,
        userId: signedInOf(request).user.id,
        ips,
        onlyFromTheseIps: request.body.onlyFromTheseIps,
      });
      return answer(request);
    },
  );

  api.get(
    '/user/preferences',
    {
      schema: { tags: ['account'], summary: "The customer's e-mail switches", response: { 200: preferencesSchema } },
    },
    async (request) => readPreferences(db, signedInOf(request).user.id),
  );

  api.put(
    '/user/preferences',
    {
      schema: {
        tags: ['account'],
        summary: 'Turn the usage e-mails (80 % and 100 % of the residential data) on or off',
        body: preferencesSchema,
        response: { 200: preferencesSchema },
      },
    },
    async (request) => savePreferences(db, signedInOf(request).user.id, request.body),
  );
};
