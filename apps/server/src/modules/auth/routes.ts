import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Auth } from './auth.ts';
import { createDeviceCookies } from './device-cookie.ts';
import { type Guards, headersOf } from './guards.ts';
import { authPath, authRateLimiter } from './rate-limit.ts';

/** Node's request as the Fetch API request better-auth expects; the URL is built on APP_URL, never on the Host header. */
export function toWebRequest(request: FastifyRequest, appUrl: string): Request {
  const headers = headersOf(request);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined;
  if (hasBody) headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Request(new URL(request.url, appUrl), {
    method: request.method,
    headers,
    body: hasBody ? JSON.stringify(request.body) : undefined,
  });
}

async function sendWebResponse(reply: FastifyReply, response: Response, extraCookies: string[] = []) {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
  }
  const cookies = [...response.headers.getSetCookie(), ...extraCookies];
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
}

export const returnAddressMessage = 'The page to return to is not a page of this site.';

/** The fields of better-auth's calls (query or body) that name where the browser goes next. */
const RETURN_ADDRESS_FIELDS = ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL', 'redirectTo'];

/**
 * True when every return address in the request is a page of this site (a path, or a URL on APP_URL's origin).
 * better-auth answers 500 for one that is not a URL at all, and would send the browser elsewhere for a foreign one.
 */
export function returnAddressesAreOwn(request: FastifyRequest, appOrigin: string): boolean {
  for (const source of [request.query, request.body]) {
    if (typeof source !== 'object' || source === null) continue;
    for (const field of RETURN_ADDRESS_FIELDS) {
      const value = (source as Record<string, unknown>)[field];
      if (value === undefined) continue;
      if (typeof value !== 'string' || value.length > 2000 || /[\\\s]/.test(value) || value.startsWith('//'))
        return false;
      // A path of this site, or a whole URL on its origin (a bare word is neither: better-auth cannot read it).
      const url = value.startsWith('/') ? URL.parse(value, appOrigin) : URL.parse(value);
      if (url?.origin !== appOrigin) return false;
    }
  }
  return true;
}

/** better-auth's handler at /api/auth/*, behind the per-IP and per-e-mail limits. */
export const authRoutes: FastifyPluginAsync<{
  auth: Auth;
  config: Config;
  /** Where the counters live (../../lib/rate-limit-store.ts). */
  rateLimit: RateLimitPluginOptions;
  /** AUTH_SECRET, which also signs the device cookies. */
  secret: string;
  guards: Guards;
}> = async (app, { auth, config, rateLimit: rateLimitOptions, secret, guards }) => {
  await app.register(rateLimit, rateLimitOptions);
  const devices = createDeviceCookies(secret, config.appUrl.startsWith('https://'));
  const checkRateLimit = authRateLimiter(app, config.auth.rateLimit, devices);
  const appOrigin = new URL(config.appUrl).origin;
  app.route({
    method: ['GET', 'POST'],
    url: '/auth/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      // Browsers name the page that posts; a post from another site (login CSRF included) is refused outright.
      const origin = request.headers.origin;
      if (request.method === 'POST' && origin !== undefined && origin !== appOrigin) {
        return reply.status(403).send({ message: 'This request did not come from this site and was refused.' });
      }
      if (!returnAddressesAreOwn(request, appOrigin)) {
        return reply.status(400).send({ message: returnAddressMessage });
      }
      if (!(await checkRateLimit(request, reply))) return reply;
      const requester = request.method === 'POST' ? guards.rememberedUserId(request) : undefined;
      const response = await auth.handler(toWebRequest(request, config.appUrl));
      // A change made here (sign-out, revoked sessions, two-factor, a new e-mail, an administrator's ban or role change)
      // reaches this instance's session cache at once: the requester's and the target user's sessions are forgotten.
      if (request.method === 'POST' && response.status < 400) {
        if (requester) guards.forgetUser(requester);
        const target = (request.body as { userId?: unknown } | undefined)?.userId;
        if (typeof target === 'string') guards.forgetUser(target);
      }
      // A right password marks this browser as one of the customer's own (see device-cookie.ts).
      const email = (request.body as { email?: unknown } | undefined)?.email;
      const signedIn = authPath(request) === '/sign-in/email' && response.status === 200 && typeof email === 'string';
      return sendWebResponse(reply, response, signedIn ? [devices.issue(email.trim())] : []);
    },
  });
};
