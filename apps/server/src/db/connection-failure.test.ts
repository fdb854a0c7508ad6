import { describe, expect, it } from 'vitest';
import { namedDatabaseFailure } from './connection-failure.ts';

const postgres = { kind: 'postgres', connectionString: 'postgres://shop:s3cret@db.internal:5432/shop' } as const;
const failure = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('a database that cannot be used at start', () => {
  it('is named by its setting and address, never its password, with what to do', () => {
    for (const [error, said] of [
      [failure('ECONNREFUSED'), 'nothing answers at that address'],
      [failure('3D000'), 'that database does not exist'],
      [failure('28P01'), 'user name or password in DATABASE_URL was refused'],
      [new Error('timeout exceeded when trying to connect'), 'DATABASE_CONNECT_TIMEOUT_MS'],
    ] as const) {
      const named = namedDatabaseFailure(error, postgres as never) as Error;
      expect(named.message).toContain('DATABASE_URL (db.internal:5432/shop)');
      expect(named.message).toContain(said);
      expect(named.message).not.toContain('s3cret');
    }
  });

  it('leaves every other error, and the embedded database, as they are', () => {
    const other = failure('23505');
    expect(namedDatabaseFailure(other, postgres as never)).toBe(other);
    const refused = failure('ECONNREFUSED');
    expect(namedDatabaseFailure(refused, { kind: 'pglite', dataDir: undefined, chosenBy: 'DATABASE_URL' })).toBe(
      refused,
    );
  });
});
