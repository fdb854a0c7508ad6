import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { namedDatabaseFailure } from './db/connection-failure.ts';
import type { PoolLog } from './db/pool.ts';
import { seedDatabase } from './db/seed.ts';
import { lockDataDir } from './lifecycle/data-dir-lock.ts';
import type { Lifecycle } from './lifecycle/shutdown.ts';
import { applyAdminEmails } from './modules/auth/admin-emails.ts';

export interface StartedApp {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Where pool errors are logged (a dropped idle connection, a database restart). */
  log: PoolLog;
  /** Ends the sentence that refuses an embedded database already in use. */
  inUseHint?: string;
}

/**
 * Opens the configured database. An embedded one is locked first (one owner per folder; its folder is created when
 * missing) and unlocked when it is closed.
 */
export async function openOwnedDatabase(config: Pick<Config, 'database'>, options: OpenOptions): Promise<Database> {
  const target = config.database;
  const lock =
    target.kind === 'pglite' && target.dataDir
      ? await lockDataDir({
          databaseDir: target.dataDir,
          ...(target.chosenBy === 'DATA_DIR'
            ? { variable: 'DATA_DIR', shown: path.dirname(target.dataDir) }
            : { variable: 'DATABASE_URL', shown: `pglite:${target.dataDir}` }),
          hint: options.inUseHint,
          onCompromised: (error) =>
            options.log.error(
              { err: error },
              'the lock on the embedded database was lost: another process may open it',
            ),
        })
      : undefined;
  try {
    const database = await openDatabase(target, { log: options.log });
    return {
      ...database,
      close: async () => {
        try {
          await database.close();
        } finally {
          await lock?.release();
        }
      },
    };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

/**
 * What every start does to its database before the app is built (the test app too): the migrations unless
 * MIGRATE_ON_START=false, the catalogue and feature flags of a new database (and the demo stock when SEED_DEMO), and
 * ADMIN_EMAILS' roles.
 */
export async function prepareDatabase(database: Database, config: Config) {
  if (config.migrateOnStart) await database.migrate();
  const seed = await seedDatabase(database.db, config);
  const admins = await applyAdminEmails(database.db, config.auth.adminEmails);
  return { seed, admins };
}

/** Opens the database (locked when embedded), prepares it (prepareDatabase) and builds the app. */
export async function prepareApp(
  config: Config,
  options: { logger?: boolean | object; lifecycle?: Lifecycle } & OpenOptions,
): Promise<StartedApp> {
  const database = await openOwnedDatabase(config, options);
  try {
    const { seed, admins } = await prepareDatabase(database, config);
    const app = await buildApp({ config, database, logger: options.logger, lifecycle: options.lifecycle });
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
    throw namedDatabaseFailure(error, config.database);
  }
}
