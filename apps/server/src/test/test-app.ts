import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { seedDatabase } from '../db/seed.ts';
import type { Mail, Mailer } from '../lib/mailer.ts';
import { applyAdminEmails } from '../modules/users/admins.ts';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Every e-mail the app sent, newest last. */
  mails: Mail[];
  close(): Promise<void>;
}

/**
 * The real app on a fresh database: in-memory PGlite, or, when the project runs with TEST_DB=postgres, a new database
 * created on TEST_DATABASE_URL's server and dropped afterwards.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
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
    ...env,
  });
  const database = await openDatabase(config.database);
  await database.migrate();
  await seedDatabase(database.db, config);
  await applyAdminEmails(database.db, config.auth.adminEmails);
  const mails: Mail[] = [];
  const mailer: Mailer = {
    delivers: true,
    async send(mail) {
      mails.push(mail);
    },
  };
  const app = await buildApp({ config, database, logger: false, mailer });
  return {
    app,
    database,
    config,
    mails,
    close: async () => {
      await app.close();
      await database.close();
      await dropDatabase();
    },
  };
}

/** Headers of a same-site JSON request from the app's own pages. */
export const jsonHeaders = { 'content-type': 'application/json', origin: 'http://localhost:3000' };

/** Signs a new customer up through the API; answers their session cookie and id. */
export async function signUpCustomer(t: TestApp, email: string): Promise<{ cookie: string; id: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: jsonHeaders,
    payload: { email, password: 'Str0ng!pass', name: email.split('@')[0] },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.body}`);
  const cookie = String(response.headers['set-cookie']).split(';')[0] ?? '';
  const body = response.json() as { user: { id: string } };
  return { cookie, id: body.user.id };
}
