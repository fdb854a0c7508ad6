import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, count, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { emailOutbox } from '../db/schema.ts';
import type { Mail, Mailer } from '../lib/mailer.ts';
import { dispatchOutbox } from '../modules/notifications/outbox.ts';
import { prepareDatabase } from '../start.ts';

let proofLogStream: Writable | undefined;
function proofLog(file: string): Writable {
  proofLogStream ??= createWriteStream(file, { flags: 'a' });
  return proofLogStream;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Every e-mail the app sent, newest last. */
  mails: Mail[];
  /** The mailer that keeps them (for calling a use case as the app would). */
  mailer: Mailer;
  /**
   * Waits until the outbox has sent everything due (account e-mails are written there and sent in the background), so
   * that `mails` holds them.
   */
  mailsSettled(): Promise<void>;
  /** Stops the app and starts a new one on the same database, as a restarted server does; `app` is the new one. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database: in-memory PGlite, or, when the project runs with TEST_DB=postgres, a new database
 * created on TEST_DATABASE_URL's server and dropped afterwards.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    /** Where the app's info log goes (else nothing is logged). */
    log?: Writable;
    /** A mailer that sends too (a real SMTP one, say); `mails` still keeps what was sent. */
    mailer?: Mailer;
  } = {},
): Promise<TestApp> {
  const adminUrl = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  let databaseUrl = 'memory://';
  let dropDatabase = async () => {};
  if (adminUrl) {
    const name = `storefront_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    WEB_DIST_DIR: '/nonexistent',
    PRICING_CACHE_MS: '0',
    JOBS_INTERVAL_S: '0',
    APP_URL: 'http://localhost:3000',
    // The same demo inventory on both databases (PostgreSQL gets none by default).
    SEED_DEMO: 'true',
    ...env,
  });
  const database = await openDatabase(config.database);
  // As a start does (start.ts), then the same buildApp below.
  await prepareDatabase(database, config);
  const mails: Mail[] = [];
  const other = options.mailer;
  const mailer: Mailer = {
    delivers: true,
    async send(mail) {
      await other?.send(mail);
      mails.push(mail);
    },
    ...(other?.verify && { verify: () => other.verify?.() ?? Promise.resolve() }),
    ...(other?.concurrency && { concurrency: other.concurrency }),
    ...(other?.close && { close: () => other.close?.() }),
  };
  // `npm run proof` collects the info log of the whole API suite in PROOF_LOG_FILE and scans it for secrets.
  const logStream = options.log ?? (process.env.PROOF_LOG_FILE ? proofLog(process.env.PROOF_LOG_FILE) : undefined);
  const logger = logStream ? { level: 'info', stream: logStream } : false;
  const testApp: TestApp = {
    app: await buildApp({ config, database, logger, mailer }),
    database,
    config,
    mails,
    mailer,
    mailsSettled: async () => {
      for (let round = 0; round < 500; round++) {
        await dispatchOutbox(database.db, mailer, testApp.app.log);
        const [left] = await database.db
          .select({ n: count() })
          .from(emailOutbox)
          .where(and(isNull(emailOutbox.sentAt), lte(emailOutbox.nextAttemptAt, sql`now() + interval '10 minutes'`)));
        if (Number(left?.n ?? 0) === 0) return;
        await sleep(10);
      }
      throw new Error('e-mails are still waiting in the outbox');
    },
    restart: async () => {
      await testApp.app.close();
      testApp.app = await buildApp({ config, database, logger, mailer });
    },
    close: async () => {
      await testApp.app.close();
      await database.close();
      await dropDatabase();
    },
  };
  return testApp;
}

/** Headers of a same-site JSON request from the app's own pages. */
export const jsonHeaders = { 'content-type': 'application/json', origin: 'http://localhost:3000' };

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  /** The caller's session cookie (cookieOf), as a browser sends it. */
  cookie?: string;
  /** A personal API key, sent as `Authorization: Bearer psk_…`. */
  key?: string;
  /** A JSON body; without one no Content-Type is sent (an empty body declared JSON is refused). */
  payload?: unknown;
  /** More headers, or ones that replace the defaults. */
  headers?: Record<string, string>;
  /** The caller's IP address (rate limits count by it); else inject's 127.0.0.1. */
  remoteAddress?: string;
}

/**
 * One API call as the shop's own pages make it: from the shop's Origin, JSON when it has a body, with the caller's
 * session cookie or API key. Every test calls the app through this (or through t.app.inject for a request no page makes).
 */
export function callApi(t: TestApp, method: Method, url: string, options: CallOptions = {}) {
  const { cookie, key, payload, headers, remoteAddress } = options;
  return t.app.inject({
    method,
    url,
    ...(remoteAddress && { remoteAddress }),
    headers: {
      origin: new URL(t.config.appUrl).origin,
      ...(payload !== undefined && { 'content-type': 'application/json' }),
      ...(cookie && { cookie }),
      ...(key && { authorization: `Bearer ${key}` }),
      ...headers,
    },
    ...(payload !== undefined && { payload: payload as object }),
  });
}

/** The session cookie(s) of an answer, as a Cookie header. */
export function cookieOf(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}

/** The newest confirmation link mailed to `email`, as a path the app answers. */
export async function confirmationLinkOf(t: TestApp, email: string): Promise<string> {
  await t.mailsSettled();
  const mail = t.mails.findLast((m) => m.to === email && /Confirm your e-mail/.test(m.subject));
  const link = /(http\S+verify-email\S+)/.exec(mail?.text ?? '')?.[1];
  if (!link) throw new Error(`no confirmation e-mail to ${email}`);
  const url = new URL(link);
  return url.pathname + url.search;
}

/** The password the test helpers sign customers up with. */
export const TEST_PASSWORD = 'Str0ng!pass';

/**
 * Follows a mailed confirmation link as a browser does: the link leads to the /auth/callback page, whose button posts the
 * token back from the shop's own origin with the password the account was signed up with. Answers the post's answer
 * (its cookie is the new session).
 */
export async function confirmEmail(t: TestApp, link: string, password = TEST_PASSWORD) {
  const landing = await t.app.inject({ method: 'GET', url: link });
  const page = new URL(String(landing.headers.location), t.config.appUrl);
  if (landing.statusCode !== 303 || page.pathname !== '/auth/callback') {
    throw new Error(`the confirmation link did not lead to /auth/callback: ${landing.statusCode} ${page}`);
  }
  return callApi(t, 'POST', '/api/auth/confirm-email', {
    payload: { token: page.searchParams.get('token'), password },
  });
}

/**
 * Signs a new customer up through the API and confirms the address with the mailed link, as a customer does (there is
 * no session before the confirmation); answers their session cookie and id.
 */
export async function signUpCustomer(t: TestApp, email: string): Promise<{ cookie: string; id: string }> {
  const response = await callApi(t, 'POST', '/api/auth/sign-up/email', {
    payload: { email, password: TEST_PASSWORD, name: email.split('@')[0], callbackURL: '/auth/callback' },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.body}`);
  const confirmed = await confirmEmail(t, await confirmationLinkOf(t, email));
  const cookie = cookieOf(confirmed.headers['set-cookie']);
  if (!cookie.includes('session_token=')) throw new Error(`confirmation did not sign in: ${confirmed.statusCode}`);
  const me = await callApi(t, 'GET', '/api/user/auth', { cookie });
  const id = (me.json() as { user: { id: string } | null }).user?.id;
  if (!id) throw new Error('no user after the confirmation');
  return { cookie, id };
}
