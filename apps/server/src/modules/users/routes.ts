import { authCheckResponseSchema, endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { preparedJson, sendJson } from '../../lib/prepared-json.ts';
import { routeOf } from '../../lib/route.ts';
import type { Auth } from '../auth/auth.ts';
import { type Guards, type SignedIn, signedInOf } from '../auth/guards.ts';
import { changePassword } from './change-password.ts';

/** A signed-in session's answer as bytes, made once per session object the session cache keeps. */
const preparedAuthCheck = preparedJson(authCheckResponseSchema, ({ user }: SignedIn) => ({
  authenticated: true,
  user: { ...user, createdAt: user.createdAt.toISOString() },
}));

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
      // From this instance's session cache when it remembers the session (guards.ts); a session better-auth extends
      // when it is read sends its new cookie.
      const signedIn = await guards.currentSession(request, { reply });
      if (!signedIn) return { authenticated: false, user: null };
      // The same object while the session cache remembers the session: its answer is serialised once.
      return sendJson(reply, preparedAuthCheck(signedIn));
    },
  });

  api.route({
    ...routeOf(endpoints.changePassword, guards),
    handler: async (request) => {
      const signedIn = signedInOf(request);
      const context = await auth.$context;
      const hash = await context.password.hash(request.body.newPassword);
      await changePassword({ db, signedIn, passwordHash: hash, now: new Date() });
      guards.forgetUser(signedIn.user.id);
      return { message: 'Password updated!' };
    },
  });
};
