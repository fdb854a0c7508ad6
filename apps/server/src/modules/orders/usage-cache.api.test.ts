import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { residentialAccounts } from '../../db/schema.ts';
import { createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';

// GET /api/orders/usage is answered from each instance's memory until the database notifies a change of the customer's
// residential account (usage-cache.ts, migration 0012). Whoever makes the change (a purchase, a gateway's metering,
// psql), the next reads show it within the time a notification takes to arrive.
describe('usage answers kept until the account changes', () => {
  let t: TestApp;
  let customer: { cookie: string; id: string };
  const read = async () =>
    (await t.app.inject({ url: '/api/orders/usage', headers: { cookie: customer.cookie } })).json() as {
      usedInKb: number;
      totalInKb: number;
    }[];

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
    customer = await signUpCustomer(t, 'usage@example.com');
  });
  afterAll(() => t.close());

  it('shows an account created, metered and topped up by other connections at the next reads', async () => {
    expect(await read()).toEqual([]);
    expect(await read()).toEqual([]);
    await t.database.db
      .insert(residentialAccounts)
      .values({ userId: customer.id, username: 'res-usage', password: 'secret', totalKb: 1_024_000 });
    await expect.poll(read).toEqual([expect.objectContaining({ usedInKb: 0, totalInKb: 1_024_000 })]);
    // Kept now; a write by hand, as a gateway process or psql would make it, still reaches the next reads.
    expect(await read()).toEqual([expect.objectContaining({ usedInKb: 0 })]);
    await t.database.db.execute(
      sql`update residential_accounts set used_kb = used_kb + 512 where user_id = ${customer.id}`,
    );
    await expect.poll(read).toEqual([expect.objectContaining({ usedInKb: 512, totalInKb: 1_024_000 })]);
    await t.database.db
      .update(residentialAccounts)
      .set({ totalKb: 2_048_000 })
      .where(eq(residentialAccounts.userId, customer.id));
    await expect.poll(read).toEqual([expect.objectContaining({ usedInKb: 512, totalInKb: 2_048_000 })]);
  });

  it.runIf(process.env.TEST_DB === 'postgres')(
    'reads the database while its listening connection is down, and keeps answers again once it is back',
    async () => {
      expect(await read()).toEqual([expect.objectContaining({ usedInKb: 512 })]);
      const admin = new pg.Client({
        connectionString: t.config.database.kind === 'postgres' ? t.config.database.connectionString : '',
      });
      await admin.connect();
      try {
        const cut = await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
        );
        expect(cut.rowCount).toBeGreaterThan(0);
        // While it cannot hear, each read goes to the database: a change is seen at once, with no notification.
        await expect
          .poll(async () => {
            await admin.query('update residential_accounts set used_kb = used_kb + 1 where user_id = $1', [
              customer.id,
            ]);
            const [{ used_kb }] = (
              await admin.query('select used_kb from residential_accounts where user_id = $1', [customer.id])
            ).rows;
            return (await read())[0]?.usedInKb === Number(used_kb);
          })
          .toBe(true);
        // It listens again within a second or so, and changes keep reaching the reads.
        await expect
          .poll(
            async () =>
              (
                await admin.query(
                  "select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
                )
              ).rows[0].n,
            { timeout: 10_000 },
          )
          .toBe(1);
        await admin.query('update residential_accounts set used_kb = 9999 where user_id = $1', [customer.id]);
        await expect.poll(read).toEqual([expect.objectContaining({ usedInKb: 9999 })]);
      } finally {
        await admin.end();
      }
    },
  );
});
