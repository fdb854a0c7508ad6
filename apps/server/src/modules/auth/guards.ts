import { API_KEY_PREFIX, apiKeyMessages, authMessages, type UserRole } from '@storefront/contract';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
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
  /** The session of the request (cookie or `Authorization: Bearer`), or null. */
  currentSession(request: FastifyRequest): Promise<SignedIn | null>;
  /** onRequest (before the body is read): 401 without a user; 403 for a cross-site write made with the session cookie. */
  requireUser(request: FastifyRequest): Promise<void>;
  /** onRequest (before the body is read): 401 without a user, 403 for a user who is not an administrator. */
  requireAdmin(request: FastifyRequest): Promise<void>;
  /**
   * onRequest for the customer's own reads: a signed-in session, or a personal API key sent as `Authorization: Bearer
   * psk_…` (or as `?key=` where the route takes it). A key never sets `signedIn`, so every other guard refuses it.
   */
  requireReader(request: FastifyRequest): Promise<void>;
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

/** Routes that take the key in the query string: links a tool loads by URL. */
const KEY_IN_QUERY = new Set(['/api/proxy-list']);

export function createGuards(auth: Auth, config: Config, authenticateKey: AuthenticateKey): Guards {
  const appOrigin = new URL(config.appUrl).origin;

  async function currentSession(request: FastifyRequest): Promise<SignedIn | null> {
    if (request.signedIn) return request.signedIn;
    const found = await auth.api.getSession({ headers: headersOf(request) });
    if (!found || found.user.banned) return null;
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

  /** A write carried by the session cookie must come from our own pages (bearer requests cannot be forged by a site). */
  function checkOrigin(request: FastifyRequest) {
    if (request.method === 'GET' || request.method === 'HEAD' || request.headers.authorization) return;
    const source = request.headers.origin ?? request.headers.referer;
    let origin: string | undefined;
    try {
      origin = source ? new URL(source).origin : undefined;
    } catch {
      origin = undefined;
    }
    if (origin !== appOrigin) {
      throw new AppError('FORBIDDEN', 'This request did not come from this site and was refused.');
    }
  }

  return {
    currentSession,
    async requireUser(request) {
      const signedIn = await currentSession(request);
      if (!signedIn) throw new AppError('UNAUTHORIZED', authMessages.authRequired);
      checkOrigin(request);
    },
    async requireAdmin(request) {
      const signedIn = await currentSession(request);
      if (!signedIn) throw new AppError('UNAUTHORIZED', authMessages.noToken);
      if (signedIn.user.role !== 'admin') throw new AppError('FORBIDDEN', authMessages.adminRequired);
      checkOrigin(request);
    },
    async requireReader(request) {
      const fromQuery = KEY_IN_QUERY.has(request.routeOptions.url ?? '');
      const key = apiKeyOf(request, fromQuery);
      if (key === undefined) {
        const signedIn = await currentSession(request);
        if (signedIn) return;
        throw new AppError('UNAUTHORIZED', fromQuery ? apiKeyMessages.keyRequired : authMessages.authRequired);
      }
      const holder = await authenticateKey(key);
      if (!holder) throw new AppError('UNAUTHORIZED', apiKeyMessages.invalidKey);
      request.keyHolder = holder;
    },
  };
}
