import type pg from 'pg';
import type { DatabaseTarget } from '../config.ts';

/** Where the pool reports a connection it lost (pino's shape). */
export interface PoolLog {
  error(object: object, message: string): void;
}

type PostgresTarget = Extract<DatabaseTarget, { kind: 'postgres' }>;

/** The PostgreSQL pool of the shop and of a gateway on its own: the same limits and the same handling of a lost connection. */
export function openPool(pgModule: typeof pg, target: PostgresTarget, log: PoolLog): pg.Pool {
  const pool = new pgModule.Pool({
    connectionString: target.connectionString,
    max: target.poolSize,
    connectionTimeoutMillis: target.connectTimeoutMs,
    // Sent at connection start: PostgreSQL itself cancels a statement that runs longer (0 = no limit).
    statement_timeout: target.statementTimeoutMs,
  });
  // An idle client that errors (a database restart) must not end the process; the next query connects again. Said in
  // the log, since a run of these is how a failing database first shows. The error carries its pg client (connection
  // settings, every prepared statement's text): only what it says is logged.
  pool.on('error', (error) =>
    log.error(
      { err: { message: error.message, code: (error as { code?: string }).code } },
      'a pooled database connection failed; it will be replaced',
    ),
  );
  return pool;
}

/** The pool's connections by state, for storefront_db_pool_connections. */
export function poolConnections(pool: pg.Pool): { total: number; idle: number; waiting: number } {
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}
