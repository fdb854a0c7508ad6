import { hash } from 'node:crypto';
import { API_KEY_PREFIX, apiKeyMessages, authMessages, type UserRole } from '@storefront/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { crossSiteMessage, isRefusedCrossSite, ownOrigins, SESSION_COOKIE } from '../../lib/own-site.ts';
import type { Auth } from './auth.ts';
import { isBannedNow } from './ban.ts';

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

/** At most this many sessions are remembered per instance (the least recently used go first). */
const SESSION_CACHE_ENTRIES = 20_000;

export interface Guards {
  /**
   * The session of the request (cookie or `Authorization: Bearer`), or null. `fresh` asks the database even when this
   * instance remembers the session; with `reply`, a session better-auth extended sends its new cookie.
   */
  currentSession(
    request: FastifyRequest,
    options?: { fresh?: boolean; reply?: FastifyReply },
  ): Promise<SignedIn | null>;
  /**
   * onRequest (before the body is read): 401 without a user; 403 for a cross-site write made with the session cookie.
   * A read (GET) may be answered from the session cache; a write is checked against the database.
   */
  requireUser(request: FastifyRequest, reply?: FastifyReply): Promise<void>;
  /** onRequest (before the body is read): 401 without a user, 403 for a user who is not an administrator. Never cached. */
  requireAdmin(request: FastifyRequest, reply?: FastifyReply): Promise<void>;
  /**
   * Forgets what this instance remembers of a user's sessions: after a sign-out, a password change, a ban or any other
   * change of the account, so that this instance sees it at once (others within SESSION_CACHE_MS, for reads only).
   */
  forgetUser(userId: string): void;
  /** The user this instance remembers for the request's session credential, if any (without asking the database). */
  rememberedUserId(request: FastifyRequest): string | undefined;
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

/**
 * What identifies a request's session, hashed (the cache never holds a usable token): the bearer token, else the
 * session cookie. Undefined without either: such a request has no session and the database is not asked.
 */
export function credentialKey(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const token = bearer ?? SESSION_COOKIE.exec(request.headers.cookie ?? '')?.[1];
  // One-shot hashing: no Hash object per request (this runs on every signed-in read).
  return token ? hash('sha256', token, 'base64url') : undefined;
}

const isRead = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD';

export function createGuards(auth: Auth, config: Config, authenticateKey: AuthenticateKey): Guards {
  const origins = ownOrigins(config.appUrl);
  /** Session credential (hashed) → the signed-in user, or false for a credential that opens no session. */
  // For SESSION_CACHE_MS (config.sessionCacheMs) this instance answers reads from its memory of a session instead of
  // asking the database (docs/decisions/2026-11-23-session-cache.md). Writes and admin calls always ask the database.
  const ttl = config.sessionCacheMs;
  const sessions = new LRUCache<string, SignedIn | false>({ max: SESSION_CACHE_ENTRIES, ttl: Math.max(ttl, 1) });

  async function currentSession(
    request: FastifyRequest,
    { fresh = false, reply }: { fresh?: boolean; reply?: FastifyReply } = {},
  ): Promise<SignedIn | null> {
    if (request.signedIn) return request.signedIn;
    const key = credentialKey(request);
    if (key === undefined) return null;
    if (!fresh && ttl > 0) {
      const remembered = sessions.get(key);
      if (remembered === false) return null;
      if (remembered && remembered.session.expiresAt.getTime() > Date.now()) {
        request.signedIn = remembered;
        return remembered;
      }
    }
    // better-auth extends a session older than a day when it is read; its new cookie is passed on with `reply`.
    const { headers, response: found } = await auth.api.getSession({
      headers: headersOf(request),
      returnHeaders: true,
    });
    const cookies = headers.getSetCookie();
    if (reply && cookies.length > 0) reply.header('set-cookie', cookies);
    if (!found || isBannedNow(found.user)) {
      if (ttl > 0) sessions.set(key, false);
      return null;
    }
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
    if (ttl > 0) sessions.set(key, signedIn);
    return signedIn;
  }

  /** A write made with the session cookie must come from our own pages (lib/own-site.ts). */
  function checkOrigin(request: FastifyRequest) {
    if (isRefusedCrossSite(request, origins)) throw new AppError('FORBIDDEN', crossSiteMessage);
  }

  return {
    currentSession,
    async requireUser(request, reply) {
      const signedIn = await currentSession(request, { fresh: !isRead(request), reply });
      if (!signedIn) throw new AppError('UNAUTHORIZED', authMessages.authRequired);
      checkOrigin(request);
    },
    async requireAdmin(request, reply) {
      const signedIn = await currentSession(request, { fresh: true, reply });
      if (!signedIn) throw new AppError('UNAUTHORIZED', authMessages.noToken);
      if (signedIn.user.role !== 'admin') throw new AppError('FORBIDDEN', authMessages.adminRequired);
      checkOrigin(request);
    },
    forgetUser(userId) {
      for (const [key, remembered] of sessions.entries()) {
        if (remembered && remembered.user.id === userId) sessions.delete(key);
      }
    },
    rememberedUserId(request) {
      const key = credentialKey(request);
      const remembered = key === undefined ? undefined : sessions.get(key);
      return remembered ? remembered.user.id : undefined;
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
