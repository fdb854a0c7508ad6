import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { type Database, openDatabase } from './client.ts';

// The pool's settings reach PostgreSQL, and a pooled connection that fails is said in the log, not dropped.
describe.runIf(process.env.TEST_DB === 'postgres')('the PostgreSQL pool', () => {
  let t: TestApp;
  let database: Database;
  const logged: { object: object; message: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    if (t.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    database = await openDatabase(
      { ...t.config.database, poolSize: 2, statementTimeoutMs: 300, connectTimeoutMs: 2000 },
      { log: { error: (object, message) => logged.push({ object, message }) } },
    );
  });
  afterAll(async () => {
    await database.close();
    await t.close();
  });

  it('PostgreSQL cancels a statement past DATABASE_STATEMENT_TIMEOUT_MS', async () => {
    const error = await database.db.execute(sql`select pg_sleep(2)`).catch((failure: Error) => failure);
    // drizzle wraps the driver's error: PostgreSQL's own words are its cause.
    expect(((error as Error).cause as Error | undefined)?.message).toMatch(/statement timeout/);
    expect(await database.ping()).toBe(true);
  });

  it('logs a pooled connection the database ends, and carries on with a new one', async () => {
    await database.db.execute(sql`select 1`);
    // The pool's idle connections, ended by the server as a restart or an administrator would.
    await t.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and state = 'idle' and application_name = ''`,
    );
    await vi.waitFor(() => expect(logged).not.toHaveLength(0), { timeout: 10_000 });
    expect(logged[0]?.message).toBe('a pooled database connection failed; it will be replaced');
    expect(JSON.stringify(logged[0]?.object)).toMatch(/terminat/i);
    expect(await database.ping()).toBe(true);
  });
});
