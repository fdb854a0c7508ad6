import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { seedDatabase } from './db/seed.ts';
import { applyAdminEmails } from './modules/auth/admin-emails.ts';

export interface StartedApp {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/** Opens the database, applies migrations, seeds a new database and builds the app. */
export async function prepareApp(config: Config, options: { logger?: boolean | object } = {}): Promise<StartedApp> {
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    const seed = await seedDatabase(database.db, config);
    const admins = await applyAdminEmails(database.db, config.auth.adminEmails);
    const app = await buildApp({ config, database, logger: options.logger });
    if (config.payments.provider === 'sandbox') {
      const log = config.env === 'production' ? app.log.warn.bind(app.log) : app.log.info.bind(app.log);
      log('payments go to the sandbox provider: no real money moves; set STRIPE_SECRET_KEY to take real payments');
    }
    if (admins.promoted > 0)
      app.log.info({ promoted: admins.promoted }, 'users named in ADMIN_EMAILS were given the admin role');
    if (admins.demoted > 0)
      app.log.warn({ demoted: admins.demoted }, 'admins whose e-mail address is not confirmed lost the admin role');
    if (seed.seeded)
      app.log.info({ demoIps: seed.demoIps }, 'new database seeded with the catalogue and feature flags');
    return {
      app,
      database,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
