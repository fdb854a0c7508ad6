import { hash } from 'node:crypto';
import { API_KEY_PREFIX, apiKeyMessages, authMessages, type UserRole } from '@storefront/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { isBannedNow } from '../../lib/ban.ts';
import { crossSiteMessage, isRefusedCrossSite, ownOrigins, SESSION_COOKIE } from '../../lib/own-site.ts';
import type { Auth } from './auth.ts';

export interface SignedIn {
  user: {
    id: string;
    email: string;
    role: UserRole;
    createdAt: Date;
    emailVerified: boolean;
    twoFactorEnabled: boolean;
  };
  session: { id: string; createdAt: Date; expiresAt: Date };
}

/** The customer a personal API key belongs to (modules/api-keys). */
export interface KeyHolder {
  keyId: string;
  userId: string;
}

export type AuthenticateKey = (key: string) => Promise<KeyHolder | null>;

export interface Guards {
  /**
   * The session of the request (cookie or `Authorization: Bearer`), or null, read from the database every time: a
   * sign-out, ban or revocation on any instance is seen by every instance at once. With `reply`, a session better-auth
   * extended sends its new cookie.
   */
  currentSession(request: FastifyRequest, options?: { reply?: FastifyReply }): Promise<SignedIn | null>;
  /** onRequest (before the body is read): 401 without a user; 403 for a cross-site write made with the session cookie. */
  requireUser(request: FastifyRequest, reply?: FastifyReply): Promise<void>;
  /** onRequest (before the body is read): 401 without a user, 403 for a user who is not an administrator. */
  requireAdmin(request: FastifyRequest, reply?: FastifyReply): Promise<void>;
  /**
   * onRequest for the customer's own reads: a signed-in session, or a personal API key sent as `Authorization: Bearer
   * psk_…` (or as `?key=` on a route that takes it: `keyInQuery`, for links a tool loads by URL). A key never sets
   * `signedIn`, so every other guard refuses it.
   */
  requireReader(request: FastifyRequest, reply?: FastifyReply, options?: { keyInQuery?: boolean }): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    signedIn?: SignedIn;
    /** Set by requireReader when the request carries a personal API key instead of a session. */
    keyHolder?: KeyHolder;
  }
}

export function headersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** The signed-in user of a request, set by requireUser or requireAdmin. */
export function signedInOf(request: FastifyRequest): SignedIn {
  if (!request.signedIn) throw new AppError('UNAUTHORIZED', authMessages.authRequired);
  return request.signedIn;
}

/** Who made a change, as the audit log records it: the signed-in administrator. */
export function actorOf(request: FastifyRequest): { id: string; email: string } {
  const { user } = signedInOf(request);
  return { id: user.id, email: user.email };
}

/** The customer whose data a read is for: the signed-in user, or the owner of the API key. */
export function readerOf(request: FastifyRequest): string {
  if (request.keyHolder) return request.keyHolder.userId;
  return signedInOf(request).user.id;
}

/** The personal API key a request carries: a bearer token with the key prefix, or the `key` query parameter. */
function apiKeyOf(request: FastifyRequest, fromQuery: boolean): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer?.startsWith(API_KEY_PREFIX)) return bearer;
  if (!fromQuery) return undefined;
  const key = (request.query as { key?: unknown } | undefined)?.key;
  return typeof key === 'string' && key !== '' ? key : undefined;
}

function decodedOrAsIs(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * What identifies a request's session, hashed (a rate limit's key never holds a usable token): the bearer token, else
 * the session cookie. Undefined without either.
 */
export function credentialKey(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const raw = bearer ?? SESSION_COOKIE.exec(request.headers.cookie ?? '')?.[1];
  // One credential, one key: a cookie is percent-decoded before it is read, so its spellings are one session.
  const token = raw === undefined ? undefined : decodedOrAsIs(raw);
  return token ? hash('sha256', token, 'base64url') : undefined;
}

export function createGuards(auth: Auth, config: Config, authenticateKey: AuthenticateKey): Guards {
  const origins = ownOrigins(config.appUrl);

  async function currentSession(
    request: FastifyRequest,
    { reply }: { reply?: FastifyReply } = {},
  ): Promise<SignedIn | null> {
    if (request.signedIn) return request.signedIn;
    // No session credential: the database is not asked.
    if (credentialKey(request) === undefined) return null;
    // better-auth extends a session older than a day when it is read; its new cookie is passed on with `reply`.
    const { headers, response: found } = await auth.api.getSession({
      headers: headersOf(request),
      returnHeaders: true,
    });
    const cookies = headers.getSetCookie();
    if (reply && cookies.length > 0) reply.header('set-cookie', cookies);
    if (!found || isBannedNow(found.user)) return null;
    const signedIn: SignedIn = {
      user: {
        id: found.user.id,
        email: found.user.email,
        role: found.user.role === 'admin' ? 'admin' : 'user',
        createdAt: new Date(found.user.createdAt),
        emailVerified: found.user.emailVerified,
        twoFactorEnabled: found.user.twoFactorEnabled === true,
      },
      session: {
        id: found.session.id,
        createdAt: new Date(found.session.createdAt),
        expiresAt: new Date(found.session.expiresAt),
      },
    };
    request.signedIn = signedIn;
    return signedIn;
  }

  /** A write made with the session cookie must come from our own pages (lib/own-site.ts). */
  function checkOrigin(request: FastifyRequest) {
    if (isRefusedCrossSite(request, origins)) throw new AppError('FORBIDDEN', crossSiteMessage);
  }

  return {
    currentSession,
    async requireUser(request, reply) {
      const signedIn = await currentSession(request, { reply });
      if (!signedIn) throw new AppError('UNAUTHORIZED', authMessages.authRequired);
      checkOrigin(request);
    },
    async requireAdmin(request, reply) {
      const signedIn = await currentSession(request, { reply });
      if (!signedIn) throw new AppError('UNAUTHORIZED', authMessages.noToken);
      if (signedIn.user.role !== 'admin') throw new AppError('FORBIDDEN', authMessages.adminRequired);
      checkOrigin(request);
    },
    async requireReader(request, reply, { keyInQuery: fromQuery = false } = {}) {
      // ?key=a&key=b arrives as a list: not "no key", but one too many.
      if (fromQuery && Array.isArray((request.query as { key?: unknown } | undefined)?.key)) {
        throw new AppError('BAD_REQUEST', apiKeyMessages.oneKey);
      }
      const key = apiKeyOf(request, fromQuery);
      if (key === undefined) {
        const signedIn = await currentSession(request, { reply });
        if (signedIn) return;
        throw new AppError('UNAUTHORIZED', fromQuery ? apiKeyMessages.keyRequired : authMessages.authRequired);
      }
      const holder = await authenticateKey(key);
      if (!holder) throw new AppError('UNAUTHORIZED', apiKeyMessages.invalidKey);
      request.keyHolder = holder;
    },
  };
}
