// A throwaway PostgreSQL database for a benchmark: created on BENCH_DATABASE_URL's server, migrated and seeded
// (no demo inventory), dropped by `drop()`. One left behind by a benchmark that died first is dropped by the next.
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';

export interface BenchDatabase {
  database: Database;
  url: string;
  drop(): Promise<void>;
}

/** This machine's mark in a database's name: a process id means something only on the machine that made it. */
const HOST = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 6);
const OURS = new RegExp(`^storefront_bench_${HOST}_(\\d+)_[0-9a-f]{8}$`);

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export async function createBenchDatabase(): Promise<BenchDatabase> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `storefront_bench_${HOST}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // Databases of this machine's benchmarks whose process has gone (killed, or failed before its drop()) and that nobody
  // is connected to (a benchmark in another process namespace with the same host name may use one: it is left).
  const { rows } = await admin.query<{ datname: string }>(
    `select datname from pg_database d where datname like 'storefront\\_bench\\_%'
       and not exists (select 1 from pg_stat_activity a where a.datname = d.datname)`,
  );
  for (const { datname } of rows) {
    const pid = Number(OURS.exec(datname)?.[1] ?? 0);
    if (pid > 0 && !running(pid)) {
      await admin.query(`drop database if exists ${admin.escapeIdentifier(datname)}`).catch(() => {});
    }
  }
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url.toString(),
    SEED_DEMO: 'false',
    WEB_DIST_DIR: '/nonexistent',
  });
  const database = await openDatabase(config.database);
  await database.migrate();
  await seedDatabase(database.db, config);
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
