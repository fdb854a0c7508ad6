import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { passwordStrengthProblem } from '@storefront/contract';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { admin, bearer, genericOAuth, twoFactor } from 'better-auth/plugins';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthConfig, Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { accounts, sessions, twoFactors, users, verifications } from '../../db/schema.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { confirmationEmail, passwordResetEmail } from './emails.ts';

export const AUTH_BASE_PATH = '/api/auth';
/** A session lasts a week of inactivity; any use after a day extends it (the "refresh before it expires"). */
const SESSION_SECONDS = 7 * 24 * 60 * 60;
const SESSION_REFRESH_SECONDS = 24 * 60 * 60;

export interface AuthDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  logger: FastifyBaseLogger;
  secret: string;
}

/** The social sign-ins this server offers; both are OAuth 2 with PKCE through better-auth's generic provider. */
function socialProviders(auth: AuthConfig) {
  const providers = [];
  if (auth.google) {
    providers.push({
      providerId: 'google',
      name: 'Google',
      clientId: auth.google.clientId,
      clientSecret: auth.google.clientSecret,
      discoveryUrl: auth.google.discoveryUrl,
      scopes: ['openid', 'email', 'profile'],
      pkce: true,
      requireIdTokenVerification: true,
    });
  }
  if (auth.discord) {
    providers.push({
      providerId: 'discord',
      name: 'Discord',
      clientId: auth.discord.clientId,
      clientSecret: auth.discord.clientSecret,
      authorizationUrl: 'https://discord.com/oauth2/authorize',
      tokenUrl: 'https://discord.com/api/oauth2/token',
      userInfoUrl: 'https://discord.com/api/users/@me',
      scopes: ['identify', 'email'],
      pkce: true,
      mapProfileToUser: (profile: Record<string, unknown>) => ({
        name: String(profile.global_name ?? profile.username ?? profile.email ?? ''),
        emailVerified: profile.verified === true,
        image:
          typeof profile.avatar === 'string'
            ? `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.png`
            : undefined,
      }),
    });
  }
  return providers;
}

export function createAuth({ config, db, mailer, logger, secret }: AuthDeps) {
  const brand = { brandName: config.site.brandName, appUrl: config.appUrl };
  const adminEmails = new Set(config.auth.adminEmails);
  // Sending is not awaited: the answer must not take longer when the address exists (no account enumeration by timing).
  const sendInBackground = (mail: ReturnType<typeof confirmationEmail>) => {
    mailer.send(mail).catch((error: unknown) => logger.error({ err: error, to: mail.to }, 'e-mail could not be sent'));
  };

  return betterAuth({
    appName: config.site.brandName,
    baseURL: config.appUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: [config.appUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors },
    }),
    // Our own limiter in front of the handler counts per IP and per e-mail (rate-limit.ts).
    rateLimit: { enabled: false },
    session: { expiresIn: SESSION_SECONDS, updateAge: SESSION_REFRESH_SECONDS },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      requireEmailVerification: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => sendInBackground(passwordResetEmail(brand, user.email, url)),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) => sendInBackground(confirmationEmail(brand, user.email, url)),
    },
    account: { accountLinking: { enabled: true, trustedProviders: ['google', 'discord'] } },
    advanced: {
      useSecureCookies: config.appUrl.startsWith('https://'),
      cookiePrefix: 'storefront',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      database: { generateId: () => randomUUID() },
    },
    user: { additionalFields: {} },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => ({
            data: { ...user, role: adminEmails.has(user.email.toLowerCase()) ? 'admin' : 'user' },
          }),
        },
      },
    },
    hooks: {
      // The sign-up rules of spec section 5 hold on the server too: 8 characters, lower, upper, digit, special.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== '/sign-up/email') return;
        const password = (ctx.body as { password?: unknown } | undefined)?.password;
        const problem = typeof password === 'string' ? passwordStrengthProblem(password) : 'Password is required';
        if (problem) throw new APIError('BAD_REQUEST', { message: problem });
      }),
    },
    plugins: [
      bearer(),
      admin({ defaultRole: 'user', adminRoles: ['admin'] }),
      twoFactor({ issuer: config.site.brandName, skipVerificationOnEnable: false }),
      genericOAuth({ config: socialProviders(config.auth) }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * AUTH_SECRET when set; otherwise, on the embedded database, one generated on first start and kept beside the data
 * (so sessions survive a restart); on an in-memory database a fresh one per process.
 */
export async function resolveAuthSecret(auth: AuthConfig, logger: FastifyBaseLogger): Promise<string> {
  if (auth.secret) return auth.secret;
  if (!auth.secretFile) return randomBytes(32).toString('base64url');
  try {
    const stored = (await readFile(auth.secretFile, 'utf8')).trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('base64url');
  await mkdir(path.dirname(auth.secretFile), { recursive: true });
  await writeFile(auth.secretFile, `${secret}\n`, { mode: 0o600 });
  logger.info(
    { file: auth.secretFile },
    'generated a session secret for the embedded database (set AUTH_SECRET to choose one)',
  );
  return secret;
}
