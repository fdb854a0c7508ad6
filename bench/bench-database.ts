// A throwaway PostgreSQL database for a benchmark: created on BENCH_DATABASE_URL's server, migrated and seeded
// (no demo inventory), dropped by `drop()`.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';

export interface BenchDatabase {
  database: Database;
  url: string;
  drop(): Promise<void>;
}

export async function createBenchDatabase(): Promise<BenchDatabase> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `storefront_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
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
