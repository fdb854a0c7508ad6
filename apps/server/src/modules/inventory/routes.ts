import {
  dailyUsageSchema,
  IP_POOLS,
  ipPoolSchema,
  ipStockSchema,
  residentialStockSchema,
  setResidentialLimitRequestSchema,
  setResidentialLimitResponseSchema,
  subnetsDataSchema,
  subnetsQuerySchema,
  swapSubnetRequestSchema,
  swapSubnetResponseSchema,
  uploadIpsRequestSchema,
  uploadIpsResponseSchema,
} from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { actorOf } from '../auth/guards.ts';
import { listDailyUsage } from '../orders/daily-usage.ts';
import { getIpStock } from './ip-stock.ts';
import { listSubnets } from './list-subnets.ts';
import { getResidentialStock, setResidentialLimit } from './residential-stock.ts';
import { swapSubnet } from './swap-subnet.ts';
import { uploadIps } from './upload-ips.ts';

const poolParams = z.object({ pool: ipPoolSchema });
/** Uploads and swaps carry up to a /16 of lines (65,536 of about 40 characters). */
const LARGE_BODY = 8 * 1_048_576;

/**
 * The pools of static IPs and the residential pool: the administrator's console API (spec section 7). Registered in the admin context (modules/admin/admin-api.ts),
 * whose own hook lets only administrators through (401 for a visitor, 403 for a customer).
 */
export const inventoryAdminRoutes: FastifyPluginAsync<{ db: Db; brand: Branding }> = async (app, { db, brand }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/admin/stocks/residential',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The residential pool in MB: used (sold), limit, available, usage, and carried (metered by the gateway)',
        response: { 200: residentialStockSchema },
      },
    },
    async () => getResidentialStock({ db }),
  );

  api.get(
    '/admin/stocks/residential/daily',
    {
      schema: {
        tags: ['admin'],
        summary: 'The residential data the gateway carried for all customers per day, last 30 days',
        response: { 200: dailyUsageSchema },
      },
    },
    async () => listDailyUsage({ db }),
  );

  api.put(
    '/admin/stocks/residential',
    {
      schema: {
        tags: ['admin'],
        summary: 'Set the residential pool (MB); a larger pool delivers waiting orders first come, first served',
        body: setResidentialLimitRequestSchema,
        response: { 200: setResidentialLimitResponseSchema },
      },
    },
    async (request) =>
      setResidentialLimit({ db, brand, actor: actorOf(request), bandwidthLimit: request.body.bandwidthLimit }),
  );

  api.get(
    '/admin/stocks/:pool',
    {
      schema: {
        tags: ['admin'],
        summary: 'A static pool (pk1 or isp): counts, usage and the burnt IPs (recycles)',
        params: poolParams,
        response: { 200: ipStockSchema },
      },
    },
    async (request) => getIpStock({ db, productId: IP_POOLS[request.params.pool] }),
  );

  api.post(
    '/admin/stocks/:pool/upload',
    {
      bodyLimit: LARGE_BODY,
      schema: {
        tags: ['admin'],
        summary:
          'Add IPs to a pool (IP:PORT:USERNAME:PASSWORD lines); waiting orders are delivered at once, oldest first',
        params: poolParams,
        body: uploadIpsRequestSchema,
        response: { 200: uploadIpsResponseSchema },
      },
    },
    async (request) =>
      uploadIps({
        db,
        brand,
        actor: actorOf(request),
        productId: IP_POOLS[request.params.pool],
        lines: request.body.ips,
      }),
  );

  api.get(
    '/admin/ips/:pool/subnets',
    {
      schema: {
        tags: ['admin'],
        summary: "A pool's /24 subnets with their counts and IPs (ips=false: counts only; subnet=…: one subnet)",
        params: poolParams,
        querystring: subnetsQuerySchema.extend({ subnet: z.string().trim().min(1).max(50).optional() }),
        response: { 200: subnetsDataSchema },
      },
    },
    async (request) =>
      listSubnets({
        db,
        productId: IP_POOLS[request.params.pool],
        withIps: request.query.ips === 'true',
        subnet: request.query.subnet,
      }),
  );

  api.post(
    '/admin/ips/:pool/subnets/swap',
    {
      bodyLimit: LARGE_BODY,
      schema: {
        tags: ['admin'],
        summary: "Give a subnet's IPs new endpoints in place (as many as it has); burnt flags are cleared",
        params: poolParams,
        body: swapSubnetRequestSchema,
        response: { 200: swapSubnetResponseSchema },
      },
    },
    async (request) =>
      swapSubnet({
        db,
        brand,
        actor: actorOf(request),
        productId: IP_POOLS[request.params.pool],
        subnet: request.body.subnet,
        newEndpoints: request.body.newEndpoints,
      }),
  );
};
