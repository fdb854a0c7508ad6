import { endpoints, IP_POOLS } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { routeOf } from '../../lib/route.ts';
import { IP_LIST_BODY_LIMIT } from '../../plugins/json-body.ts';
import { actorOf } from '../auth/guards.ts';
import { listDailyUsage } from '../orders/daily-usage.ts';
import { burntIpsText, getIpStock } from './ip-stock.ts';
import { getSubnet, listSubnets } from './list-subnets.ts';
import { getResidentialStock, setResidentialLimit } from './residential-stock.ts';
import { swapSubnet } from './swap-subnet.ts';
import { listTopResidentialCustomers } from './top-residential-customers.ts';
import { uploadIps } from './upload-ips.ts';

/**
 * The pools of static IPs and the residential pool: the administrator's console API (spec section 7). Registered in the admin context (modules/admin/admin-api.ts),
 * whose own hook lets only administrators through (401 for a visitor, 403 for a customer).
 */
export const inventoryAdminRoutes: FastifyPluginAsync<{ db: Db; brand: Branding; currency: string }> = async (
  app,
  { db, brand, currency },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({ ...routeOf(endpoints.getResidentialStock), handler: async () => getResidentialStock({ db, currency }) });

  api.route({ ...routeOf(endpoints.getResidentialDailyUsage), handler: async () => listDailyUsage({ db }) });

  api.route({
    ...routeOf(endpoints.listTopResidentialCustomers),
    handler: async () => listTopResidentialCustomers({ db }),
  });

  api.route({
    ...routeOf(endpoints.setResidentialLimit),
    handler: async (request) =>
      setResidentialLimit({
        db,
        brand,
        actor: actorOf(request),
        bandwidthLimit: request.body.bandwidthLimit,
        currency,
      }),
  });

  api.route({
    ...routeOf(endpoints.getIpStock),
    handler: async (request) =>
      getIpStock({ db, productId: IP_POOLS[request.params.pool], after: request.query.after }),
  });

  api.route({
    ...routeOf(endpoints.downloadBurntIps),
    handler: async (request, reply) => {
      reply.type('text/plain; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="burnt-ips-${request.params.pool}.txt"`);
      // A stream is sent as it is read; the contract types the body as the text it becomes.
      return reply.send(burntIpsText({ db, productId: IP_POOLS[request.params.pool] }) as unknown as string);
    },
  });

  api.route({
    ...routeOf(endpoints.uploadIps),
    bodyLimit: IP_LIST_BODY_LIMIT,
    handler: async (request) =>
      uploadIps({
        db,
        brand,
        actor: actorOf(request),
        productId: IP_POOLS[request.params.pool],
        lines: request.body.ips,
      }),
  });

  api.route({
    ...routeOf(endpoints.listSubnets),
    handler: async (request) => {
      const { subnet, ips, after, ...filters } = request.query;
      const productId = IP_POOLS[request.params.pool];
      return subnet === undefined
        ? listSubnets({ db, productId, filters, after })
        : getSubnet({ db, productId, subnet, filters, withIps: ips !== 'false' });
    },
  });

  api.route({
    ...routeOf(endpoints.swapSubnet),
    bodyLimit: IP_LIST_BODY_LIMIT,
    handler: async (request) =>
      swapSubnet({
        db,
        brand,
        actor: actorOf(request),
        productId: IP_POOLS[request.params.pool],
        subnet: request.body.subnet,
        newEndpoints: request.body.newEndpoints,
      }),
  });
};
