import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { DatabaseTarget } from '../config.ts';
import { instrumentModule } from '../lib/tracing.ts';
import { shippedPaths } from '../lifecycle/release.ts';
import { openPool, type PoolLog, poolConnections } from './pool.ts';

import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: use cases take `Db | Tx` so they can join a caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: DatabaseTarget['kind'];
  /** Applies the SQL migrations; with several instances on PostgreSQL only one migrates at a time. */
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  /** The PostgreSQL pool's connections by state (metrics); undefined on the embedded database. */
  poolConnections?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

const migrationsFolder = shippedPaths.migrations;
const MIGRATION_LOCK_KEY = 7_431_904_221;

const consoleLog: PoolLog = { error: (object, message) => console.error(message, object) };

// Each driver is loaded only when used: a server on PostgreSQL never loads PGlite's WebAssembly build, and the other
// way round (memory and start-up time).
export async function openDatabase(target: DatabaseTarget, options: { log?: PoolLog } = {}): Promise<Database> {
  const log = options.log ?? consoleLog;
  if (target.kind === 'pglite') {
    const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
    const client = target.dataDir ? new PGlite(target.dataDir) : new PGlite();
    await client.waitReady;
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    return {
      db,
      kind: 'pglite',
      migrate: async () => {
        await migratePglite(db as never, { migrationsFolder });
      },
      ping: () => ping(db),
      close: () => client.close(),
    };
  }

  const [{ default: pgModule }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  // With traces on, each query is a span of the request or job run that made it (a no-op otherwise).
  instrumentModule('pg', pgModule);
  const pool = openPool(pgModule, target, log);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const lock = await pool.connect();
      try {
        // Waiting for another instance's migrations, or a long migration, is not a runaway statement.
        await lock.query('set statement_timeout = 0');
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(db as never, { migrationsFolder });
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        await lock.query('reset statement_timeout').catch(() => {});
        lock.release();
      }
    },
    ping: () => ping(db),
    poolConnections: () => poolConnections(pool),
    close: () => pool.end(),
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
