import { createHash, createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthConfig } from '../../config.ts';
import { sourceKey } from '../../lib/ip-address.ts';
import { enforceLimit } from '../../lib/rate-limits.ts';
import type { DeviceCookies } from './device-cookie.ts';
import { credentialKey } from './guards.ts';

/**
 * The auth calls a guesser or a spammer would hammer, and what each is counted by besides the IP: the e-mail address
 * in the body, or the session that makes the call (password checks behind a session).
 */
const LIMITED_PATHS: Record<string, { by: 'email' | 'session' | 'ip' }> = {
  '/sign-in/email': { by: 'email' },
  '/sign-up/email': { by: 'email' },
  '/request-password-reset': { by: 'email' },
  '/send-verification-email': { by: 'email' },
  '/reset-password': { by: 'ip' },
  '/confirm-email': { by: 'ip' },
  '/two-factor/verify-totp': { by: 'ip' },
  '/two-factor/verify-backup-code': { by: 'ip' },
  '/two-factor/enable': { by: 'session' },
  '/two-factor/disable': { by: 'session' },
  '/two-factor/get-totp-uri': { by: 'session' },
  '/two-factor/generate-backup-codes': { by: 'session' },
  '/change-password': { by: 'session' },
  '/verify-password': { by: 'session' },
  '/change-email': { by: 'session' },
  '/delete-user': { by: 'session' },
};

const emailOf = (request: FastifyRequest): string | undefined => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase() : undefined;
};

/** The session that makes the call (cookie or bearer), hashed: the key never holds a usable token. */
const sessionKeyOf = (request: FastifyRequest): string =>
  (
    credentialKey(request) ??
    createHash('sha256')
      .update(`ip:${sourceKey(request.ip)}`)
      .digest('base64url')
  ).slice(0, 22);

/**
 * Fixed windows of @fastify/rate-limit on each sensitive auth call (in Redis when REDIS_URL is set, else in memory);
 * the check throws 429 with Retry-After (lib/rate-limits.ts) or lets the request through.
 */
export function authRateLimiter(
  app: FastifyInstance,
  limits: AuthConfig['rateLimit'],
  devices: DeviceCookies,
  secret: string,
) {
  const timeWindow = limits.windowSeconds * 1000;
  // A counter's key never holds an address (Redis is read by more people than the database): a keyed hash of it, the
  // same on every instance (they share AUTH_SECRET), which a list of known addresses cannot be tried against.
  const addressKey = (request: FastifyRequest) => {
    const email = emailOf(request);
    return email === undefined ? 'none' : createHmac('sha256', secret).update(email).digest('base64url').slice(0, 22);
  };
  const keyed = (max: number, key: (request: FastifyRequest) => string) =>
    app.createRateLimit({ max, timeWindow, keyGenerator: (request) => `${key(request)}:${authPath(request)}` });
  const perIp = keyed(limits.perIp, (request) => `auth-ip:${sourceKey(request.ip)}`);
  // A guesser is stopped at once per address and IP, and a spread-out one per address from every IP (higher).
  const perEmailAndIp = keyed(
    limits.perEmail,
    (request) => `auth-email-ip:${addressKey(request)}:${sourceKey(request.ip)}`,
  );
  const perAccount = keyed(limits.perAccount, (request) => `auth-email:${addressKey(request)}`);
  // A browser that signed in with the address before counts on its own, so nobody can lock a customer out of it.
  const perDevice = keyed(limits.perEmail, (request) => `auth-device:${devices.read(request, emailOf(request))}`);
  const perSession = keyed(limits.perEmail, (request) => `auth-session:${sessionKeyOf(request)}`);

  return async function checkAuthRateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const rule = LIMITED_PATHS[authPath(request)];
    if (!rule || request.method !== 'POST') return;
    const checks = [perIp];
    const email = emailOf(request);
    if (rule.by === 'email' && email) {
      if (devices.read(request, email)) checks.push(perDevice);
      else checks.push(perEmailAndIp, perAccount);
    }
    if (rule.by === 'session') checks.push(perSession);
    for (const check of checks) {
      await enforceLimit(check, request, reply, { msg: 'auth rate limit reached', path: authPath(request) });
    }
  };
}

export function authPath(request: FastifyRequest): string {
  const wildcard = (request.params as { '*'?: string } | undefined)?.['*'];
  // A call of ours declared beside better-auth's catch-all (POST /api/auth/confirm-email) has no wildcard: its address.
  if (wildcard === undefined) return request.routeOptions.url?.replace(/^\/api\/auth(?=\/)/, '') ?? '/';
  return `/${wildcard.split('?')[0]?.replace(/\/+$/, '') ?? ''}`;
}
