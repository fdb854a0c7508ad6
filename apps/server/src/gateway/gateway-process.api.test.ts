import { BYTES_PER_KB, KB_PER_GB } from '@storefront/contract';
import { eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { residentialUsageDaily } from '../db/schema.ts';
import { spawnGateway } from '../test/processes.ts';
import { connectThroughProxy, startTargetServer, type TargetServer } from '../test/proxy-client.ts';
import { createResidentialAccount, usedKbOf } from '../test/residential-account.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

/** Gateways as separate processes: only on PostgreSQL, which several processes can share (the embedded one cannot). */
describe.skipIf(process.env.TEST_DB !== 'postgres')('residential gateway processes on one PostgreSQL', () => {
  let t: TestApp;
  let target: TargetServer;
  let databaseUrl: string;

  const account = () => createResidentialAccount(t.database.db, { totalKb: KB_PER_GB });
  const usedKb = (userId: string) => usedKbOf(t.database.db, userId);

  beforeAll(async () => {
    t = await createTestApp();
    target = await startTargetServer();
    if (t.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    databaseUrl = t.config.database.connectionString;
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  it('loses nothing on SIGTERM in the middle of a transfer', async () => {
    // No batch is written before the stop: everything counted comes from the shutdown's last write.
    const gateway = await spawnGateway(databaseUrl, { GATEWAY_FLUSH_MS: '60000' });
    const customer = await account();
    let stopped: Promise<number | null> | undefined;
    const transfer = await connectThroughProxy(
      gateway.port,
      `127.0.0.1:${target.port}`,
      customer.auth,
      '/bytes?n=50000000&delay=5',
      {
        onData: (received) => {
          if (received > 2_000_000 && !stopped) stopped = gateway.stop();
        },
      },
    );
    expect(await stopped).toBe(0);
    expect(transfer.tunnel?.cut).toBe(true);
    const clientBytes = transfer.sent + transfer.received;
    const meteredBytes = (await usedKb(customer.userId)) * BYTES_PER_KB;
    // The gateway counts what it wrote; the client may not have read the last chunk before the cut.
    expect(meteredBytes).toBeGreaterThanOrEqual(clientBytes);
    expect(meteredBytes - clientBytes).toBeLessThan(clientBytes * 0.01 + 256 * 1024);
  });

  it('two gateway processes metering one account add up exactly', async () => {
    const gateways = await Promise.all([
      spawnGateway(databaseUrl, { GATEWAY_FLUSH_MS: '200' }),
      spawnGateway(databaseUrl, { GATEWAY_FLUSH_MS: '200' }),
    ]);
    try {
      const customer = await account();
      const perGateway = await Promise.all(
        gateways.map(async (gateway) => {
          let bytes = 0;
          for (let round = 0; round < 5; round++) {
            const answers = await Promise.all(
              Array.from({ length: 8 }, () =>
                connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, customer.auth, '/bytes?n=300001'),
              ),
            );
            for (const answer of answers) {
              expect(answer.tunnel?.body.length).toBe(300_001);
              bytes += answer.sent + answer.received;
            }
            await new Promise((resolve) => setTimeout(resolve, 150));
          }
          return bytes;
        }),
      );
      for (const gateway of gateways) expect(await gateway.stop()).toBe(0);
      // Each process writes whole KB and rounds its last partial KB up when it stops.
      const expected = perGateway.reduce((total, bytes) => total + Math.ceil(bytes / BYTES_PER_KB), 0);
      expect(await usedKb(customer.userId)).toBe(expected);
      const [daily] = await t.database.db
        .select({ total: sum(residentialUsageDaily.usedKb).mapWith(Number) })
        .from(residentialUsageDaily)
        .where(eq(residentialUsageDaily.userId, customer.userId));
      expect(daily?.total).toBe(expected);
    } finally {
      await Promise.all(gateways.map((gateway) => gateway.stop()));
    }
  });
});
