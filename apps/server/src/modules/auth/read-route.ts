import type { Endpoint } from '@storefront/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sourceKey } from '../../lib/ip-address.ts';
import { enforceLimit } from '../../lib/rate-limits.ts';
import { routeOf } from '../../lib/route.ts';
import type { Guards } from './guards.ts';

/**
 * The customer's own reads: routeOf's reader guard (a session, or an API key; in the query string only where the
 * endpoint says `keyInQuery`: the list link), then a key counted against its own limit (shared across instances),
 * both before the request is read further; and the key's schemes in the API reference.
 */
export function readRouteOf(app: FastifyInstance, guards: Guards, keyRateLimitPerMinute: number) {
  const perKey = app.createRateLimit({
    max: keyRateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `api-key:${request.keyHolder?.keyId ?? sourceKey(request.ip)}`,
  });
  return <const E extends Endpoint & { access: 'reader' }>(endpoint: E) => {
    const route = routeOf(endpoint, guards);
    const requireReader = route.onRequest;
    if (!requireReader) throw new Error(`${endpoint.path} has no reader guard`);
    return {
      ...route,
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        await requireReader(request, reply);
        if (!request.keyHolder) return;
        await enforceLimit(perKey, request, reply, {
          msg: 'API key rate limit reached',
          keyId: request.keyHolder.keyId,
        });
      },
    };
  };
}
