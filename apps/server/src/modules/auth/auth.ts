import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  authMessages,
  isValidEmail,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordStrengthProblem,
  paths,
} from '@storefront/contract';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { admin, bearer, genericOAuth, twoFactor } from 'better-auth/plugins';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthConfig, Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { accounts, sessions, twoFactors, users, verifications } from '../../db/schema.ts';
import type { Mail } from '../../lib/mailer.ts';
import { ownOrigins } from '../../lib/own-site.ts';
import { ACCOUNT_EMAIL_KEY_PREFIX, enqueueEmail } from '../notifications/outbox.ts';
import { promoteIfAdmin } from './admin-emails.ts';
import { accountExistsEmail, confirmationEmail, passwordChangedEmail, passwordResetEmail } from './emails.ts';
import { startUnconfirmedAccountOver } from './unconfirmed-accounts.ts';

export const AUTH_BASE_PATH = '/api/auth';
/**
 * better-auth calls answered 404 (see `disabledPaths` below). Its own change-password is one: the shop's
 * (POST /api/user/password) asks an older sign-in for the authenticator's code too, and tells the owner. So is
 * list-sessions, which hands any session the tokens of all the account's others (no page of the shop uses it).
 */
export const DISABLED_AUTH_PATHS = [
  '/admin/remove-user',
  '/admin/impersonate-user',
  '/admin/stop-impersonating',
  '/change-password',
  '/list-sessions',
];
/** A session lasts a week of inactivity; any use after a day extends it (the "refresh before it expires"). */
const SESSION_SECONDS = 7 * 24 * 60 * 60;
const SESSION_REFRESH_SECONDS = 24 * 60 * 60;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 100;

/** Every call that sets a password, and the body field that carries it: all of them keep the one password rule. */
const PASSWORD_FIELDS: Record<string, string> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/admin/create-user': 'password',
  '/admin/set-user-password': 'newPassword',
};
/**
 * Every call that takes an e-mail address, and its field: refused here in the forms' words ('Invalid email'), before
 * better-auth's own check answers with its field path and schema wording ('[body.email] Invalid email address').
 */
const EMAIL_FIELDS: Record<string, string> = {
  '/sign-up/email': 'email',
  '/sign-in/email': 'email',
  '/request-password-reset': 'email',
  '/send-verification-email': 'email',
  '/change-email': 'newEmail',
};
/** Length caps of the fields a customer types, by call (RFC 5321 for addresses). */
const LENGTH_CAPS: Record<string, { field: string; max: number; message: string }[]> = {
  '/sign-up/email': [
    { field: 'email', max: MAX_EMAIL_LENGTH, message: `Email must be at most ${MAX_EMAIL_LENGTH} characters` },
    { field: 'name', max: MAX_NAME_LENGTH, message: `Name must be at most ${MAX_NAME_LENGTH} characters` },
  ],
  '/change-email': [
    { field: 'newEmail', max: MAX_EMAIL_LENGTH, message: `Email must be at most ${MAX_EMAIL_LENGTH} characters` },
  ],
  '/update-user': [
    { field: 'name', max: MAX_NAME_LENGTH, message: `Name must be at most ${MAX_NAME_LENGTH} characters` },
  ],
};

/** The first problem with a body sent to an auth call, in words a person understands, or null. */
export function authBodyProblem(path: string, body: Record<string, unknown> | undefined): string | null {
  for (const cap of LENGTH_CAPS[path] ?? []) {
    const value = body?.[cap.field];
    if (typeof value === 'string' && value.length > cap.max) return cap.message;
  }
  const emailField = EMAIL_FIELDS[path];
  if (emailField) {
    const email = body?.[emailField];
    if (typeof email !== 'string' || !isValidEmail(email)) return authMessages.invalidEmail;
  }
  const passwordField = PASSWORD_FIELDS[path];
  if (!passwordField) return null;
  const password = body?.[passwordField];
  return typeof password === 'string' ? passwordStrengthProblem(password) : 'Password is required';
}

export interface AuthDeps {
  config: Config;
  db: Db;
  /** Wakes the outbox's sender (the job runner's), for e-mails a person is waiting for. */
  wakeMailer: () => void;
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

/**
 * A confirmation link always finishes at /auth/callback (which greets and goes to the dashboard). A sign-in before
 * confirming mails a fresh link with better-auth's default callback '/'; passing our own callbackURL to sign-in instead
 * would make the client follow it after every successful sign-in.
 */
export function finishingAtCallback(verificationUrl: string): string {
  const url = new URL(verificationUrl);
  const callback = url.searchParams.get('callbackURL');
  if (callback === null || callback === '' || callback === '/') url.searchParams.set('callbackURL', paths.authCallback);
  return url.toString();
}

export function createAuth({ config, db, wakeMailer, logger, secret }: AuthDeps) {
  const brand = { brandName: config.site.brandName, appUrl: config.appUrl };
  const adminEmails = new Set(config.auth.adminEmails);
  // Account e-mails go through the outbox like the customer e-mails: written before the answer, so a mail server that
  // is down loses none (they are retried with a back-off), and sent at once by the woken sender. A sign-up writes one
  // whether the address is new or known, so both answers take the same time.
  const queueEmail = async (kind: string, mail: Mail) => {
    await enqueueEmail(db, `${ACCOUNT_EMAIL_KEY_PREFIX}${kind}:${randomUUID()}`, mail);
    wakeMailer();
  };

  const promoteAdmin = async (userId: string) => {
    if (await promoteIfAdmin(db, adminEmails, userId))
      logger.info({ userId }, 'confirmed address in ADMIN_EMAILS: admin role given');
  };

  const auth = betterAuth({
    appName: config.site.brandName,
    baseURL: config.appUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: [...ownOrigins(config.appUrl)],
    // The admin plugin's calls that this shop does not offer: removing a customer would fail half-way on their orders and
    // payments (which are kept), and impersonation would let an administrator act as a customer with no trace in the
    // audit log. Banning is how an account is closed (docs/decisions/2026-11-23-proof-suite.md).
    disabledPaths: DISABLED_AUTH_PATHS,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors },
    }),
    // Our own limiter in front of the handler counts per IP and per e-mail (rate-limit.ts).
    rateLimit: { enabled: false },
    session: { expiresIn: SESSION_SECONDS, updateAge: SESSION_REFRESH_SECONDS },
    // Reset tokens, OAuth state and two-factor challenges are kept as SHA-256 hashes: a copy of the database opens
    // nothing (docs/decisions/2026-11-23-security-probe.md; better-auth cannot do the same for sessions).
    verification: { storeIdentifier: 'hashed' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      // No session before the address is confirmed: sign-up answers alike for a new and a known address (better-auth
      // then returns its generic answer for a known one), and nobody holds an account, or a role, for an address they
      // have not proven to own. The known address is told by e-mail instead.
      requireEmailVerification: true,
      // A confirmed address is told by e-mail. One not yet confirmed is started over with this sign-up's password and
      // mailed a fresh link (unconfirmed-accounts.ts): whoever signed up with it before holds nothing.
      onExistingUserSignUp: async ({ user }, request) => {
        if (user.emailVerified) return queueEmail('account-exists', accountExistsEmail(brand, user.email));
        const body = (await request?.json().catch(() => undefined)) as { password?: unknown; name?: unknown };
        if (typeof body?.password !== 'string') return;
        const signUp = { password: body.password, name: typeof body.name === 'string' ? body.name : '' };
        // Not awaited: the answer takes as long as for a confirmed address (a second hash, and better-auth's mailing,
        // which waits at least 500 ms, would tell a timer that an unconfirmed account exists).
        void startUnconfirmedAccountOver(db, user.id, signUp)
          .then(({ mail }) => (mail ? auth.api.sendVerificationEmail({ body: { email: user.email } }) : undefined))
          .catch((error: unknown) => logger.error({ err: error }, 'an unconfirmed account could not be started over'));
      },
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => queueEmail('reset', passwordResetEmail(brand, user.email, url)),
      onPasswordReset: async ({ user }) => queueEmail('password-changed', passwordChangedEmail(brand, user.email)),
    },
    emailVerification: {
      sendOnSignUp: true,
      // A sign-in before confirming is refused (403) and sends a fresh link.
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      afterEmailVerification: async (user) => promoteAdmin(user.id),
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) =>
        queueEmail('confirmation', confirmationEmail(brand, user.email, finishingAtCallback(url))),
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
          // A social sign-in makes an account only for an address its provider has verified: an unverified one (a
          // Discord account made with somebody else's address) would hold the account, with its session, until the
          // address's owner confirmed it for them (docs/decisions/2026-11-27-unconfirmed-accounts.md).
          // Only an address already proven (a social provider's verified e-mail) can be an admin from the start.
          before: async (user, context) => {
            if (/^\/(oauth2\/)?callback\//.test(context?.path ?? '') && user.emailVerified !== true) return false;
            return {
              data: {
                ...user,
                role: user.emailVerified === true && adminEmails.has(user.email.toLowerCase()) ? 'admin' : 'user',
              },
            };
          },
        },
      },
      session: {
        create: {
          // An address added to ADMIN_EMAILS after it was confirmed gets the role at its next sign-in.
          after: async (session) => promoteAdmin(session.userId),
        },
      },
    },
    hooks: {
      // The one password rule (the contract's passwordStrengthProblem) holds on the server for every way of setting a
      // password, in the words the forms use; and the typed fields have length caps.
      before: createAuthMiddleware(async (ctx) => {
        const body = ctx.body as Record<string, unknown> | undefined;
        const problem = authBodyProblem(ctx.path, body);
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
  return auth;
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
