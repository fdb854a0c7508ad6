import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { namedDatabaseFailure } from '../db/connection-failure.ts';
import { openPool, poolConnections } from '../db/pool.ts';
import { instrumentModule } from '../lib/tracing.ts';
import { shippedPaths } from '../lifecycle/release.ts';
import type { StandaloneGatewayConfig } from './config.ts';
import { type SqlClient, sqlClientOf } from './sql.ts';

export interface GatewayDatabase {
  sql: SqlClient;
  close(): Promise<void>;
  /** The PostgreSQL pool's own counters, for storefront_db_pool_connections (none on the embedded database). */
  poolConnections?(): { total: number; idle: number; waiting: number };
}

/**
 * The database of a gateway on its own (`npm run gateway`): on PostgreSQL a bare pg pool, since leaving drizzle and the
 * shop's modules unloaded keeps the process small; the migrator is loaded only when a migration is pending.
 */
export async function openGatewayDatabase(
  config: Pick<StandaloneGatewayConfig, 'database' | 'migrateOnStart'>,
  log: FastifyBaseLogger,
): Promise<GatewayDatabase> {
  const target = config.database;
  if (target.kind === 'pglite') {
    const { openOwnedDatabase } = await import('../start.ts');
    const database = await openOwnedDatabase(config, {
      log,
      inUseHint:
        "the server runs the gateway itself (GATEWAY_ENABLED); a gateway on its own shares the servers' PostgreSQL",
    });
    if (config.migrateOnStart) await database.migrate();
    return { sql: sqlClientOf(database.db), close: () => database.close() };
  }
  const { default: pg } = await import('pg');
  // With traces on, a query is a span of the proxied request that made it (a no-op otherwise).
  instrumentModule('pg', pg);
  try {
    if (config.migrateOnStart && (await migrationsPending(pg, target.connectionString))) {
      const { openDatabase } = await import('../db/client.ts');
      const database = await openDatabase(target, { log });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
    }
  } catch (error) {
    throw namedDatabaseFailure(error, target);
  }
  const pool = openPool(pg, target, log);
  return {
    sql: pool as unknown as SqlClient,
    close: () => pool.end(),
    poolConnections: () => poolConnections(pool),
  };
}

/** Whether the database lacks a migration this build ships (drizzle records each applied one with its journal time). */
async function migrationsPending(pg: typeof import('pg').default, connectionString: string): Promise<boolean> {
  const journal = JSON.parse(readFileSync(path.join(shippedPaths.migrations, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    const { rows } = await client.query('select max(created_at) as last from drizzle.__drizzle_migrations');
    return Number(rows[0]?.last ?? 0) < newest;
  } catch {
    // No migrations table yet (a new database), or no answer: the migrator says which.
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}
