import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { routeOf } from '../../lib/route.ts';
import type { Auth } from '../auth/auth.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { changePassword } from './change-password.ts';

export const userRoutes: FastifyPluginAsync<{ auth: Auth; db: Db; guards: Guards }> = async (
  app,
  { auth, db, guards },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({
    ...routeOf(endpoints.checkSession, guards),
    // A few hundred bytes at most, below the compression threshold: the compression hooks are left off this route.
    compress: false,
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
    handler: async (request) => {
      const signedIn = signedInOf(request);
      const context = await auth.$context;
      const hash = await context.password.hash(request.body.newPassword);
      await changePassword({ db, signedIn, passwordHash: hash, now: new Date() });
      return { message: 'Password updated!' };
    },
  });
};
