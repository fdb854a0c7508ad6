import { afterEach, describe, expect, it } from 'vitest';
import { statementKeepingClient } from './prepared-statements.ts';

describe.runIf(process.env.TEST_DB === 'postgres')('statements kept prepared on a PostgreSQL connection', () => {
  const connectionString = process.env.TEST_DATABASE_URL ?? '';
  const kept = async (client: { query(text: string): Promise<{ rows: { statement: string }[] }> }) =>
    (await client.query('select statement from pg_prepared_statements order by prepare_time')).rows.map(
      (row) => row.statement,
    );
  const open: { end(): Promise<void> }[] = [];
  /** A connected client that keeps up to `limit` statements, ended after the test. */
  const connected = async (limit: number) => {
    const Client = statementKeepingClient(limit);
    const client = new Client({ connectionString });
    open.push(client);
    await client.connect();
    return client;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.end()));
  });

  it('keeps parameterised statements up to its limit, answers every statement alike, and never keeps the rest', async () => {
    const client = await connected(2);
    const add = { text: 'select $1::int + 1 as n' };
    const twice = { text: 'select $1::int * 2 as n' };
    const third = { text: 'select $1::int - 1 as n' };
    expect((await client.query(add, [1])).rows).toEqual([{ n: 2 }]);
    expect((await client.query(add, [41])).rows).toEqual([{ n: 42 }]);
    expect((await client.query(twice, [21])).rows).toEqual([{ n: 42 }]);
    // Beyond the limit: answered, but not kept.
    expect((await client.query(third, [43])).rows).toEqual([{ n: 42 }]);
    // Without parameters (a migration, BEGIN): never kept.
    expect((await client.query({ text: 'select 42 as n' })).rows).toEqual([{ n: 42 }]);
    expect(await kept(client)).toEqual([add.text, twice.text]);
    // A failing statement leaves the connection usable, and a kept one still answers.
    await expect(client.query({ text: 'select $1::int / 0' }, [1])).rejects.toThrow(/division by zero/);
    expect((await client.query(add, [1])).rows).toEqual([{ n: 2 }]);
  });

  it('sends a statement that PostgreSQL refused to prepare in full again, so it works once it can', async () => {
    const client = await connected(10);
    const probe = { text: 'select n from kept_probe where n = $1' };
    // Refused at parsing (no such table yet): nothing is kept under its name.
    await expect(client.query(probe, [1])).rejects.toThrow(/kept_probe" does not exist/);
    expect(await kept(client)).toEqual([]);
    await client.query('create temporary table kept_probe (n int)');
    await client.query('insert into kept_probe values (1)');
    expect((await client.query(probe, [1])).rows).toEqual([{ n: 1 }]);
    expect((await client.query(probe, [2])).rows).toEqual([]);
    expect(await kept(client)).toEqual([probe.text]);
  });

  it('keeps nothing with a limit of 0 (behind a pooler that cannot carry prepared statements)', async () => {
    const client = await connected(0);
    expect((await client.query({ text: 'select $1::int + 1 as n' }, [1])).rows).toEqual([{ n: 2 }]);
    expect(await kept(client)).toEqual([]);
  });
});
