import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The whole database's content as one digest per table (every row, every column), in one statement: two equal
 * fingerprints mean nothing was written in between. The proof tests take one before and after each refused request.
 */
export async function databaseFingerprint(db: Db): Promise<Record<string, string>> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`),
  ).map((row) => row.name);
  if (tables.length === 0) return {};
  const parts = tables.map(
    (name) =>
      `select '${name}' as name, count(*)::int as count, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`,
  );
  const rows = rowsOf<{ name: string; count: number; digest: string }>(
    await db.execute(sql.raw(parts.join(' union all '))),
  );
  return Object.fromEntries(rows.map((row) => [row.name, `${row.count}:${row.digest}`]));
}

/** The tables whose digest differs between two fingerprints. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}
