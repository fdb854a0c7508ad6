import { counted } from '@storefront/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { sourceKey } from './ip-address.ts';

/** A limiter made by @fastify/rate-limit's `createRateLimit` (its counters in Redis when REDIS_URL is set). */
export type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

export function tooManyAttemptsMessage(ttlSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(ttlSeconds / 60));
  return `Too many attempts. Please wait ${counted(minutes, 'minute', 'minutes')} and try again.`;
}

/**
 * The one way the API refuses a request over one of its limits (sign-in and the other auth calls, checkout, API keys):
 * counts it with `limiter`, and when the limit is exceeded logs `reason` and throws 429 with Retry-After and
 * "Too many attempts. Please wait N minutes and try again." (in the route's error shape).
 */
export async function enforceLimit(
  limiter: Limiter,
  request: FastifyRequest,
  reply: FastifyReply,
  reason: { msg: string; [field: string]: unknown },
): Promise<void> {
  const result = await limiter(request);
  if (result.isAllowed || !result.isExceeded) return;
  const { msg, ...fields } = reason;
  request.log.warn(fields, msg);
  reply.header('retry-after', String(result.ttlInSeconds));
  throw new AppError('TOO_MANY_REQUESTS', tooManyAttemptsMessage(result.ttlInSeconds));
}

/**
 * The limit on opening pages at the payment provider (checkouts, and the page that saves a card for top-up): `max` in
 * 10 minutes per signed-in customer. Both count under one key, so with Redis they share one count; without it each
 * plugin's limiter counts in its own memory.
 */
export function paymentPagesLimiter(app: FastifyInstance, max: number): Limiter {
  return app.createRateLimit({
    max,
    timeWindow: 10 * 60 * 1000,
    keyGenerator: (request) => `checkout:${request.signedIn?.user.id ?? sourceKey(request.ip)}`,
  });
}
