import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthConfig } from '../../config.ts';

/** The auth calls a guesser or a spammer would hammer, and whether the body names an e-mail to count per address. */
const LIMITED_PATHS: Record<string, { perEmail: boolean }> = {
  '/sign-in/email': { perEmail: true },
  '/sign-up/email': { perEmail: true },
  '/request-password-reset': { perEmail: true },
  '/send-verification-email': { perEmail: true },
  '/reset-password': { perEmail: false },
  '/two-factor/verify-totp': { perEmail: false },
  '/two-factor/verify-backup-code': { perEmail: false },
  '/two-factor/enable': { perEmail: false },
};

export function tooManyAttemptsMessage(ttlSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(ttlSeconds / 60));
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}

const emailOf = (request: FastifyRequest): string | undefined => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase() : undefined;
};

/**
 * A per-IP and a per-e-mail window on each sensitive auth call (fixed windows of @fastify/rate-limit, counted in Redis
 * when REDIS_URL is set, else in this process's memory). Returns a check that answers 429 `{ message }` with Retry-After, or lets the request through.
 */
export function authRateLimiter(app: FastifyInstance, limits: AuthConfig['rateLimit']) {
  const timeWindow = limits.windowSeconds * 1000;
  const perIp = app.createRateLimit({
    max: limits.perIp,
    timeWindow,
    keyGenerator: (request) => `auth-ip:${request.ip}:${authPath(request)}`,
  });
  const perEmail = app.createRateLimit({
    max: limits.perEmail,
    timeWindow,
    keyGenerator: (request) => `auth-email:${emailOf(request)}:${authPath(request)}`,
  });

  return async function checkAuthRateLimit(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const rule = LIMITED_PATHS[authPath(request)];
    if (!rule || request.method !== 'POST') return true;
    const results = [await perIp(request)];
    if (rule.perEmail && emailOf(request)) results.push(await perEmail(request));
    for (const result of results) {
      if (!result.isAllowed && result.isExceeded) {
        request.log.warn({ path: authPath(request) }, 'auth rate limit reached');
        await reply
          .status(429)
          .header('retry-after', String(result.ttlInSeconds))
          .send({ message: tooManyAttemptsMessage(result.ttlInSeconds) });
        return false;
      }
    }
    return true;
  };
}

function authPath(request: FastifyRequest): string {
  const wildcard = (request.params as { '*'?: string } | undefined)?.['*'] ?? '';
  return `/${wildcard.split('?')[0]?.replace(/\/+$/, '') ?? ''}`;
}
