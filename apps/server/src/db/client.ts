import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { DatabaseTarget } from '../config.ts';
import { statementKeepingClient } from './prepared-statements.ts';
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

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
const MIGRATION_LOCK_KEY = 7_431_904_221;

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'pglite') {
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

  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: 10,
    Client: statementKeepingClient(target.preparedStatements),
  });
  // An idle client that errors (database restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(db as never, { migrationsFolder });
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        lock.release();
      }
    },
    ping: () => ping(db),
    listen: (channel, handlers) => listenPostgres(target.connectionString, channel, handlers),
    close: () => pool.end(),
  };
}

/** LISTEN on a connection of its own (a pooled one would be handed to queries), connecting again when it drops. */
async function listenPostgres(
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
    const client = new pg.Client({ connectionString });
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
