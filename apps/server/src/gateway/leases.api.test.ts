import { BYTES_PER_KB } from '@storefront/contract';
import { asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { residentialGatewayLeases } from '../db/schema.ts';
import { connectThroughProxy, startTargetServer, type TargetServer } from '../test/proxy-client.ts';
import { createResidentialAccount, usedKbOf } from '../test/residential-account.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { type Gateway, startGateway } from './gateway.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;

/** Two gateways on one database, in one process (so on the embedded database too): what each may carry of an account. */
describe('residential gateways reserve an account’s data in slices', () => {
  let t: TestApp;
  let target: TargetServer;
  const gateways: Gateway[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    target = await startTargetServer();
    for (let n = 0; n < 2; n++) {
      gateways.push(
        await startGateway({
          db: t.database.db,
          config: {
            ...t.config.gateway,
            host: '127.0.0.1',
            port: 0,
            allowPrivateTargets: true,
            flushMs: 60_000,
            cacheMs: 60_000,
            sliceKb: 1024,
          },
          log: silent,
        }),
      );
    }
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await target.close();
    await t.close();
  });

  const leases = (userId: string) =>
    t.database.db
      .select({ kb: residentialGatewayLeases.kb })
      .from(residentialGatewayLeases)
      .where(eq(residentialGatewayLeases.userId, userId))
      .orderBy(asc(residentialGatewayLeases.kb));

  it('gives a second gateway only what the first does not hold, cuts it there, and hands over what goes idle', async () => {
    const [first, second] = gateways as [Gateway, Gateway];
    const customer = await createResidentialAccount(t.database.db, { totalKb: 1536 });
    const download = (gateway: Gateway, bytes: number) =>
      connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, customer.auth, `/bytes?n=${bytes}`);

    // The first gateway takes a slice; the second what is left of the account beside it.
    expect((await download(first, 100_000)).tunnel?.cut).toBe(false);
    expect((await download(second, 100_000)).tunnel?.cut).toBe(false);
    expect((await leases(customer.userId)).map((lease) => lease.kb)).toEqual([1536 - 1024, 1024]);

    // Past its share the second gateway cuts the tunnel, although the account as last read has data left...
    const cut = await download(second, 600_000);
    expect(cut.tunnel?.cut).toBe(true);
    // ...and refuses the next request in words, while the first still holds its slice.
    const refused = await download(second, 1000);
    expect(refused.status).toBe(402);
    expect(refused.body.toString()).toMatch(/^Your residential data is used up/);
    expect((await download(first, 100_000)).tunnel?.cut).toBe(false);

    // What was carried is written and taken off the leases; a lease nothing was carried on since is given back.
    await first.flush();
    await second.flush();
    expect((await leases(customer.userId)).length).toBe(2);
    await first.flush();
    await second.flush();
    expect(await leases(customer.userId)).toEqual([]);
    // The second's share was 512 KB: billed what the first carried in its slice and the second up to its cut.
    const usedKb = await usedKbOf(t.database.db, customer.userId);
    expect(usedKb).toBeGreaterThan(512 + 2 * 97);
    expect(usedKb).toBeLessThanOrEqual(1536);
  });
});
