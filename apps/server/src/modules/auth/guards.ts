import { authMessages, type UserRole } from '@storefront/contract';
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

export interface Guards {
  /** The session of the request (cookie or `Authorization: Bearer`), or null. */
  currentSession(request: FastifyRequest): Promise<SignedIn | null>;
  /** onRequest (before the body is read): 401 without a user; 403 for a cross-site write made with the session cookie. */
  requireUser(request: FastifyRequest): Promise<void>;
  /** onRequest (before the body is read): 401 without a user, 403 for a user who is not an administrator. */
  requireAdmin(request: FastifyRequest): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    signedIn?: SignedIn;
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

export function createGuards(auth: Auth, config: Config): Guards {
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
  };
}
