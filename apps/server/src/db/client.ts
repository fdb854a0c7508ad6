import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { DatabaseTarget } from '../config.ts';
import { instrumentModule } from '../lib/tracing.ts';
import { shippedPaths } from '../lifecycle/release.ts';
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
  /**
   * Listens to a notification channel (NOTIFY, sent at the commit of the transaction that wrote it). `onReady` is called
   * each time notifications start to flow, `onLost` each time they may have stopped (the connection dropped: some may
   * be lost until the next `onReady`; it reconnects by itself). Answers a function that stops listening.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  onNotify(payload: string): void;
  onReady(): void;
  onLost(): void;
}

/** How long a lost listening connection waits before it connects again. */
const RELISTEN_MS = 1000;

const migrationsFolder = shippedPaths.migrations;
const MIGRATION_LOCK_KEY = 7_431_904_221;

/** Where the pool reports a connection it lost (pino's shape). */
export interface PoolLog {
  error(object: object, message: string): void;
}

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
      // One process holds the embedded database: its notifications cannot be lost.
      listen: async (channel, handlers) => {
        const stop = await client.listen(channel, handlers.onNotify);
        handlers.onReady();
        return () => stop();
      },
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
  const pool = new pgModule.Pool({
    connectionString: target.connectionString,
    max: target.poolSize,
    connectionTimeoutMillis: target.connectTimeoutMs,
    // Sent at connection start: PostgreSQL itself cancels a statement that runs longer (0 = no limit).
    statement_timeout: target.statementTimeoutMs,
  });
  // An idle client that errors (database restart) must not crash the process; the next query reconnects. Said in the
  // log, since a run of these is how a failing database first shows.
  // The error carries its pg client (connection settings, every prepared statement's text): only what it says is logged.
  pool.on('error', (error) =>
    log.error(
      { err: { message: error.message, code: (error as { code?: string }).code } },
      'a pooled database connection failed; it will be replaced',
    ),
  );
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
    listen: (channel, handlers) => listenPostgres(pgModule, target.connectionString, channel, handlers),
    poolConnections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/** LISTEN on a connection of its own (a pooled one would be handed to queries), connecting again when it drops. */
async function listenPostgres(
  pgModule: typeof pg,
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;

  const lost = (client: pg.Client) => {
    if (current === client) {
      current = undefined;
      handlers.onLost();
    }
    client.end().catch(() => {});
    if (!stopped && retry === undefined) {
      retry = setTimeout(() => {
        retry = undefined;
        void connect();
      }, RELISTEN_MS);
    }
  };

  const connect = async () => {
    const client = new pgModule.Client({ connectionString });
    client.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? '');
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`listen "${channel.replaceAll('"', '""')}"`);
    } catch {
      lost(client);
      return;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    handlers.onReady();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
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
