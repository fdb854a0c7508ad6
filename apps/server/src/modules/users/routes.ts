import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { enforceLimit } from '../../lib/rate-limits.ts';
import { routeOf } from '../../lib/route.ts';
import type { Auth } from '../auth/auth.ts';
import { type Guards, headersOf, signedInOf } from '../auth/guards.ts';
import { changePassword, provePasswordChange } from './change-password.ts';

export const userRoutes: FastifyPluginAsync<{
  auth: Auth;
  db: Db;
  guards: Guards;
  brand: Branding;
  /** The sign-in limits' window and count per address, applied per account to password changes. */
  limits: AuthConfig['rateLimit'];
  rateLimit: RateLimitPluginOptions;
  wakeMailer: () => void;
}> = async (app, { auth, db, guards, brand, limits, rateLimit: rateLimitOptions, wakeMailer }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  await app.register(rateLimit, rateLimitOptions);
  // A current password or an authenticator code is guessed no faster here than at sign-in.
  const perAccount = app.createRateLimit({
    max: limits.perEmail,
    timeWindow: limits.windowSeconds * 1000,
    keyGenerator: (request) => `password-change:${request.signedIn?.user.id}`,
  });

  api.route({
    ...routeOf(endpoints.checkSession, guards),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // A session better-auth extends when it is read sends its new cookie.
      const signedIn = await guards.currentSession(request, { reply });
      if (!signedIn) return { authenticated: false, user: null };
      return { authenticated: true, user: { ...signedIn.user, createdAt: signedIn.user.createdAt.toISOString() } };
    },
  });

  api.route({
    ...routeOf(endpoints.changePassword, guards),
    handler: async (request, reply) => {
      const signedIn = signedInOf(request);
      await enforceLimit(perAccount, request, reply, { msg: 'password change rate limit reached' });
      const { newPassword, currentPassword, code } = request.body;
      const checkCode = async (totp: string) => {
        const checked = await auth.api.verifyTOTP({
          body: { code: totp },
          headers: headersOf(request),
          asResponse: true,
        });
        return checked.ok;
      };
      await provePasswordChange({ db, signedIn, proof: { currentPassword, code }, now: new Date(), checkCode });
      const context = await auth.$context;
      const hash = await context.password.hash(newPassword);
      await changePassword({ db, signedIn, passwordHash: hash, brand, now: new Date() });
      wakeMailer();
      return { message: 'Password updated!' };
    },
  });
};
