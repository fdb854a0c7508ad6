import type { Config } from '../config.ts';

/** Host, port and database of a postgres:// URL, never its user or password. */
export function postgresWhere(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.host}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** What PostgreSQL's or the network's error code says of DATABASE_URL, in a sentence an operator can act on. */
const POSTGRES_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'nothing answers at that address: is PostgreSQL running there, on that port?',
  ENOTFOUND: 'that host name is not known',
  EAI_AGAIN: 'that host name could not be looked up',
  EHOSTUNREACH: 'that host cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  '3D000': 'that database does not exist: create it, or name another in DATABASE_URL',
  '28P01': 'the user name or password in DATABASE_URL was refused',
  '28000': 'that user may not connect: it does not exist, or pg_hba.conf refuses it from here',
};

/**
 * A PostgreSQL database that could not be reached at start, named by its setting and address (never its password), so
 * that the operator knows what to change; any other error as it is.
 */
export function namedDatabaseFailure(error: unknown, target: Config['database']): unknown {
  if (target.kind !== 'postgres' || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const known = typeof code === 'string' ? POSTGRES_FAILURES[code] : undefined;
  const timedOut = /timeout/i.test(error.message) && /connect/i.test(error.message);
  if (!known && !timedOut) return error;
  const why = known ?? 'the connection timed out (DATABASE_CONNECT_TIMEOUT_MS)';
  return new Error(
    `the database at DATABASE_URL (${postgresWhere(target.connectionString)}) could not be used: ${why}`,
    {
      cause: error,
    },
  );
}
