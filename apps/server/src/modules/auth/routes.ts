import { setTimeout as sleep } from 'node:timers/promises';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { confirmationMessages, endpoints, paths } from '@storefront/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { crossSiteMessage, isRefusedCrossSite, ownOrigins } from '../../lib/own-site.ts';
import { routeOf } from '../../lib/route.ts';
import { AUTH_BASE_PATH, type Auth } from './auth.ts';
import { createDeviceCookies } from './device-cookie.ts';
import { headersOf } from './guards.ts';
import { authPath, authRateLimiter } from './rate-limit.ts';
import { checkSignUpPassword, keepConfirmingPassword } from './unconfirmed-accounts.ts';

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

/**
 * Whether a confirmation token would sign its holder in (a first confirmation), read from the JWT's payload without
 * checking it: only to route the link, since better-auth checks the token when it is used. Tokens of an e-mail change
 * carry `updateTo` and never open a session; what is not a JWT at all is refused by better-auth as before.
 */
export function isSignInConfirmation(token: string): boolean {
  const payload = token.split('.')[1];
  if (!payload) return false;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && !('updateTo' in claims);
  } catch {
    return false;
  }
}

/**
 * The body of every accepted sign-up: the same whether the address was new or already had an account (better-auth's
 * own answer differs in its fields), made only of what the requester sent.
 */
export function signUpAnswer(body: unknown) {
  const { email, name } = (body ?? {}) as { email?: unknown; name?: unknown };
  return {
    token: null,
    user: {
      email: typeof email === 'string' ? email.trim().toLowerCase() : '',
      name: typeof name === 'string' ? name : '',
      emailVerified: false,
    },
  };
}

/**
 * How long every sign-up answer takes at least. A new address costs better-auth two more writes than a known one
 * (the user and its credential), which a timer could tell apart; each answer waits until this much time has passed
 * since the request began, well above what either takes, so both take the same time.
 */
export const SIGN_UP_ANSWER_MS = 300;

export const noSuchAuthCallMessage = 'There is no such account call, or this shop does not offer it.';

/** better-auth's handler at /api/auth/*, behind the per-IP and per-e-mail limits. */
export const authRoutes: FastifyPluginAsync<{
  auth: Auth;
  db: Db;
  config: Config;
  /** Where the counters live (../../lib/rate-limit-store.ts). */
  rateLimit: RateLimitPluginOptions;
  /** AUTH_SECRET, which also signs the device cookies. */
  secret: string;
}> = async (app, { auth, db, config, rateLimit: rateLimitOptions, secret }) => {
  await app.register(rateLimit, rateLimitOptions);
  const devices = createDeviceCookies(secret, config.appUrl.startsWith('https://'));
  const checkRateLimit = authRateLimiter(app, config.auth.rateLimit, devices, secret);
  const appOrigin = new URL(config.appUrl).origin;
  const origins = ownOrigins(config.appUrl);

  /**
   * The confirmation page's button: with the password the account was signed up with (unconfirmed-accounts.ts),
   * confirms the address with better-auth's own call, which signs the customer in.
   */
  async function confirmEmail(token: string, password: string, request: FastifyRequest, reply: FastifyReply) {
    const checked = await checkSignUpPassword(db, secret, token, password);
    if (checked.outcome === 'wrong') {
      return reply.status(400).send({ code: 'WRONG_PASSWORD', message: confirmationMessages.wrongPassword });
    }
    const url = new URL(`${AUTH_BASE_PATH}/verify-email`, config.appUrl);
    url.searchParams.set('token', token);
    const headers = headersOf(request);
    headers.delete('content-length');
    headers.delete('content-type');
    const response = await auth.handler(new Request(url, { method: 'GET', headers }));
    if (response.ok) {
      if (checked.outcome === 'matched') await keepConfirmingPassword(db, checked.userId, checked.hash);
      return sendWebResponse(reply, new Response(JSON.stringify({ status: true }), response));
    }
    // better-auth answers 401 with its code for a bad or expired token: for this call that is bad input.
    const { code } = (await response.json().catch(() => ({}))) as { code?: string };
    const known =
      code !== undefined && Object.hasOwn(confirmationMessages, code)
        ? confirmationMessages[code as keyof typeof confirmationMessages]
        : undefined;
    return reply
      .status(response.status === 401 || known ? 400 : response.status)
      .send({ code, message: known ?? confirmationMessages.failed });
  }

  /**
   * Our own call beside better-auth's (POST /api/auth/confirm-email, see isSignInConfirmation): a static route, which
   * Fastify prefers to the catch-all below, with the catch-all's checks once its body is read and before the token is
   * checked (a missing or overlong one is 400 in the contract's words).
   */
  const confirmEmailChecks = async (request: FastifyRequest, reply: FastifyReply) => {
    // Only our own confirmation page may post the token: another site could send an account of its own (login CSRF).
    if (isRefusedCrossSite(request, origins)) return reply.status(403).send({ message: crossSiteMessage });
    if (!returnAddressesAreOwn(request, appOrigin)) return reply.status(400).send({ message: returnAddressMessage });
    await checkRateLimit(request, reply);
  };
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(endpoints.confirmEmail),
    preValidation: confirmEmailChecks,
    handler: async (request, reply) => confirmEmail(request.body.token, request.body.password, request, reply),
  });

  app.route({
    method: ['GET', 'POST'],
    url: '/auth/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      // A post from another site (login CSRF included) is refused outright, by the same rule as every write.
      if (isRefusedCrossSite(request, origins)) return reply.status(403).send({ message: crossSiteMessage });
      if (!returnAddressesAreOwn(request, appOrigin)) {
        return reply.status(400).send({ message: returnAddressMessage });
      }
      const path = authPath(request);
      // The mailed confirmation link signs in, so following it must not be enough: another site could send a browser
      // there with the link of an account it controls (login CSRF). The link leads to a page of ours whose button posts
      // the token back (below), which only our own pages can do (the check above).
      if (request.method === 'GET' && path === '/verify-email') {
        // The token better-auth would read (the first of the URL's), not Fastify's reading of the query.
        const token = new URL(request.url, config.appUrl).searchParams.get('token');
        if (token !== null && isSignInConfirmation(token)) {
          return reply.redirect(`${paths.authCallback}?${new URLSearchParams({ token })}`, 303);
        }
      }
      await checkRateLimit(request, reply);
      const startedAt = performance.now();
      const response = await auth.handler(toWebRequest(request, config.appUrl));
      // Rounded up and a millisecond more: a timer truncates a fraction of a millisecond and counts from the event
      // loop's cached clock, either of which would answer just before the time.
      if (path === '/sign-up/email') {
        await sleep(Math.max(0, Math.ceil(SIGN_UP_ANSWER_MS - (performance.now() - startedAt)) + 1));
      }
      // A call better-auth does not have, or that this shop turns off, answers 404 with no words (a body of `null`).
      if (response.status === 404) {
        const answer = (await response
          .clone()
          .json()
          .catch(() => null)) as { message?: unknown } | null;
        if (typeof answer?.message !== 'string') return reply.status(404).send({ message: noSuchAuthCallMessage });
      }
      if (path === '/sign-up/email' && response.status === 200) {
        return sendWebResponse(reply, new Response(JSON.stringify(signUpAnswer(request.body)), response));
      }
      // A right password marks this browser as one of the customer's own (see device-cookie.ts).
      const email = (request.body as { email?: unknown } | undefined)?.email;
      const signedIn = path === '/sign-in/email' && response.status === 200 && typeof email === 'string';
      return sendWebResponse(reply, response, signedIn ? [devices.issue(email.trim())] : []);
    },
  });
};
