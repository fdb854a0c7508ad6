import { uploadIpsRequestSchema, uploadIpsResponseSchema } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import type { Guards } from '../auth/guards.ts';
import { uploadIps } from './upload-ips.ts';

/** The administrator's inventory calls under /api/admin (the rest of the console comes with its own issue). */
export const inventoryRoutes: FastifyPluginAsync<{ db: Db; guards: Guards; brand: Branding }> = async (
  app,
  { db, guards, brand },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', guards.requireAdmin);
  api.addHook('onSend', privateNoStore);

  api.post(
    '/admin/stocks/pk1/upload',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Add PK1 IPs (IP:PORT:USERNAME:PASSWORD lines); waiting PK1 orders are delivered at once, oldest first',
        body: uploadIpsRequestSchema,
        response: { 200: uploadIpsResponseSchema },
      },
    },
    async (request) => uploadIps({ db, brand, productId: 'pk1_isp_proxies', lines: request.body.ips }),
  );
};
