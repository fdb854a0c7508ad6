import type { Db } from '../db/client.ts';

/**
 * What the gateway needs of a database: parameterised SQL and rows back. Both drivers answer it as they are (a pg Pool
 * and PGlite), so the gateway loads no query builder: in a process of its own that keeps it small.
 */
export interface SqlClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The driver under a drizzle database (its `$client`), or a SqlClient as it is. */
export function sqlClientOf(db: Db | SqlClient): SqlClient {
  if ('$client' in db) return (db as { $client: unknown }).$client as SqlClient;
  return db as SqlClient;
}

/** A bigint column as a number: pg answers it as text, PGlite as a number or a BigInt. */
export const toNumber = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
