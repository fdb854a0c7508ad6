import { authCheckResponseSchema, changePasswordRequestSchema } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Auth } from '../auth/auth.ts';
import { type Guards, headersOf, signedInOf } from '../auth/guards.ts';
import { changePassword } from './change-password.ts';

export const userRoutes: FastifyPluginAsync<{ auth: Auth; db: Db; guards: Guards }> = async (
  app,
  { auth, db, guards },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/user/auth',
    {
      schema: {
        tags: ['account'],
        summary: 'Who is signed in, and their role',
        description:
          'Accepts the session cookie or `Authorization: Bearer <token>`. Without a session: authenticated false.',
        response: { 200: authCheckResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // better-auth extends a session older than a day when it is read; its new cookie is passed on here.
      const { headers, response: found } = await auth.api.getSession({
        headers: headersOf(request),
        returnHeaders: true,
      });
      const cookies = headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      if (!found || found.user.banned) return { authenticated: false, user: null };
      const { user } = found;
      return {
        authenticated: true,
        user: {
          id: user.id,
          email: user.email,
          role: user.role === 'admin' ? ('admin' as const) : ('user' as const),
          createdAt: new Date(user.createdAt).toISOString(),
          emailVerified: user.emailVerified,
          twoFactorEnabled: user.twoFactorEnabled === true,
        },
      };
    },
  );

  api.post(
    '/user/password',
    {
      onRequest: guards.requireUser,
      schema: {
        tags: ['account'],
        summary: 'Set a new password and sign out every other session',
        description:
          'For a session signed in within the last 24 hours (an older one must sign in again). Also gives a password to an account made with a social sign-in.',
        body: changePasswordRequestSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const signedIn = signedInOf(request);
      const context = await auth.$context;
      const hash = await context.password.hash(request.body.newPassword);
      await changePassword({ db, signedIn, passwordHash: hash, now: new Date() });
      return { message: 'Password updated!' };
    },
  );
};
