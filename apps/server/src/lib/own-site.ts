import type { FastifyRequest } from 'fastify';

/** The answer (403) to a state-changing request that did not come from one of the shop's own pages. */
export const crossSiteMessage = 'This request did not come from this site and was refused.';

/** The session cookie (better-auth's, under our prefix); its value is the session token. */
export const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?storefront\.session_token=([^;]+)/;

/** True when the request carries the session cookie, the credential a browser attaches to other sites' requests too. */
export function carriesSessionCookie(request: FastifyRequest): boolean {
  return SESSION_COOKIE.test(request.headers.cookie ?? '');
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The shop's public origins (scheme, host and port) from its configured address(es): APP_URL. A shop on a loopback
 * name answers on all three of them (a newcomer opens whichever address they see); no other site can be one.
 */
export function ownOrigins(...appUrls: string[]): readonly string[] {
  return appUrls.flatMap((address) => {
    const url = new URL(address);
    if (!LOOPBACK_NAMES.includes(url.hostname)) return [url.origin];
    return LOOPBACK_NAMES.map((name) => {
      url.hostname = name;
      return url.origin;
    });
  });
}

/**
 * True when the request names one of the shop's own origins as the page that made it: its Origin header, or its
 * Referer when it has no Origin. Neither (a tool, or a browser told to send nothing), `null` (a sandboxed frame, a
 * redirect from elsewhere), a look-alike host or a second port are not the shop.
 */
export function comesFromOwnSite(request: FastifyRequest, origins: readonly string[]): boolean {
  const source = request.headers.origin ?? request.headers.referer;
  if (typeof source !== 'string' || source === '') return false;
  const origin = URL.parse(source)?.origin;
  return origin !== undefined && origin !== 'null' && origins.includes(origin);
}

const isStateChanging = (request: FastifyRequest) =>
  request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS';

/**
 * The one rule for cross-site requests (CSRF, login CSRF included): a state-changing request must come from one of the
 * shop's own pages (comesFromOwnSite). Only a request authenticated by `Authorization: Bearer` and carrying no session
 * cookie is exempt: no other site can make a browser send that header, so it cannot be forged from one.
 */
export function isRefusedCrossSite(request: FastifyRequest, origins: readonly string[]): boolean {
  if (!isStateChanging(request)) return false;
  const bearerOnly = /^Bearer\s/i.test(request.headers.authorization ?? '') && !carriesSessionCookie(request);
  if (bearerOnly) return false;
  if (comesFromOwnSite(request, origins)) return false;
  // An operator whose APP_URL is not the address the browser used sees why every form is refused.
  request.log.warn(
    { origin: request.headers.origin ?? request.headers.referer ?? null, expected: origins },
    'cross-site request refused: its Origin is not one of APP_URL',
  );
  return true;
}
