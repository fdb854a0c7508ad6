import { randomUUID } from 'node:crypto';
import dns from 'node:dns';
import { BYTES_PER_KB, KB_PER_GB, targetedUsername } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { customerPreferences, proxyUsers, residentialUsageDomains, residentialUsageHourly } from '../db/schema.ts';
import {
  basicAuth,
  connectThroughProxy,
  httpThroughProxy,
  socksThroughProxy,
  startTargetServer,
  type TargetServer,
} from '../test/proxy-client.ts';
import { createResidentialAccount, usedKbOf } from '../test/residential-account.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { type Gateway, startGateway } from './gateway.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;

/** What the gateway records for a customer's usage analytics: by user, hour, country and domain, as it bills. */
describe('residential gateway: usage analytics', () => {
  let t: TestApp;
  let target: TargetServer;

  beforeAll(async () => {
    t = await createTestApp();
    target = await startTargetServer();
    // Public names that lead to the test's own target: connections resolve them as any other name.
    const lookup = dns.lookup;
    vi.spyOn(dns, 'lookup').mockImplementation(((host: string, options: unknown, callback: unknown) => {
      if (!/example\.(com|co\.uk)$/.test(host))
        return (lookup as (...args: unknown[]) => void)(host, options, callback);
      const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
      const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
      process.nextTick(() => (all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4)));
    }) as typeof dns.lookup);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await target.close();
    await t.close();
  });

  const db = () => t.database.db;
  const start = (usageDomains = true) =>
    startGateway({
      db: db(),
      config: {
        ...t.config.gateway,
        host: '127.0.0.1',
        port: 0,
        allowPrivateTargets: true,
        flushMs: 60_000,
        cacheMs: 0,
        usageDomains,
      },
      log: silent,
    });
  const line = (username: string, country: string) =>
    targetedUsername(username, { country, sessionId: 'ab12cd34', durationMinutes: 60, type: 'dynamic' });

  /** An account and one proxy user ("team", password secret123). */
  async function team() {
    const account = await createResidentialAccount(db(), { totalKb: KB_PER_GB });
    const proxyUserId = randomUUID();
    await db()
      .insert(proxyUsers)
      .values({ id: proxyUserId, userId: account.userId, name: 'team', password: 'secret123' });
    return { account, proxyUserId, proxyUser: `${account.username}_team` };
  }

  /** Traffic of the main user and the proxy user over HTTP, CONNECT and SOCKS 5; bytes carried by user. */
  async function traffic(gateway: Gateway, { account, proxyUser }: Awaited<ReturnType<typeof team>>) {
    const main = await httpThroughProxy(
      gateway.port,
      `http://www.shop.example.com:${target.port}/bytes?n=30000`,
      basicAuth(line(account.username, 'US'), account.password),
    );
    const tunnel = await connectThroughProxy(
      gateway.port,
      `api.example.co.uk:${target.port}`,
      basicAuth(line(proxyUser, 'DE'), 'secret123'),
      '/bytes?n=50000',
    );
    const socks = await socksThroughProxy(
      gateway.port,
      { username: line(proxyUser, 'DE'), password: 'secret123' },
      { host: '127.0.0.1', port: target.port },
      '/bytes?n=20000',
    );
    expect([main.status, tunnel.tunnel?.status, socks.reply]).toEqual([200, 200, 0]);
    return {
      main: main.sent + main.received,
      proxyUser: tunnel.sent + tunnel.received + socks.sent + socks.received,
    };
  }

  const hourly = (userId: string) =>
    db().select().from(residentialUsageHourly).where(eq(residentialUsageHourly.userId, userId));
  const domains = (userId: string) =>
    db().select().from(residentialUsageDomains).where(eq(residentialUsageDomains.userId, userId));
  const bytesOf = (rows: { uploadBytes: number; downloadBytes: number }[]) =>
    rows.reduce((total, row) => total + row.uploadBytes + row.downloadBytes, 0);

  it('records every byte by user, country and domain, adding up to what was billed across two gateways and a restart', async () => {
    const customer = await team();
    const { account, proxyUserId } = customer;
    // Two gateways at once, then a third after they stopped: each one's last write rounds up its own partial KB.
    const carried: { main: number; proxyUser: number }[] = [];
    const [first, second] = [await start(), await start()];
    carried.push(...(await Promise.all([traffic(first, customer), traffic(second, customer)])));
    await Promise.all([first.close(), second.close()]);
    const third = await start();
    carried.push(await traffic(third, customer));
    await third.close();

    const billedKb = carried.reduce(
      (total, bytes) => total + Math.ceil(bytes.main / BYTES_PER_KB) + Math.ceil(bytes.proxyUser / BYTES_PER_KB),
      0,
    );
    expect(await usedKbOf(db(), account.userId)).toBe(billedKb);
    const rows = await hourly(account.userId);
    const recorded = carried.reduce((total, bytes) => total + bytes.main + bytes.proxyUser, 0);
    // Every byte carried is in the analytics, each way apart; billing rounds each gateway's last KB of a user up.
    expect(bytesOf(rows)).toBe(recorded);
    expect(Math.abs(Math.ceil(bytesOf(rows) / BYTES_PER_KB) - billedKb)).toBeLessThanOrEqual(carried.length * 2);
    expect(
      rows.map((row) => ({ proxyUserId: row.proxyUserId, country: row.country, connections: row.connections })),
    ).toEqual(
      expect.arrayContaining([
        { proxyUserId: '', country: 'US', connections: 3 },
        { proxyUserId, country: 'DE', connections: 6 },
      ]),
    );
    const byDomain = new Map<string, number>();
    for (const row of await domains(account.userId)) {
      const key = `${row.proxyUserId ? 'team' : 'main'} ${row.country} ${row.domain}`;
      byDomain.set(key, (byDomain.get(key) ?? 0) + row.connections);
    }
    // The registrable domain only; an address's connections count under none.
    expect(Object.fromEntries(byDomain)).toEqual({
      'main US example.com': 3,
      'team DE example.co.uk': 3,
      'team DE ': 3,
    });
    expect(bytesOf(await domains(account.userId))).toBe(recorded);
  });

  it('records no domain for a customer who switched it off, nor for anyone when the operator did', async () => {
    const off = await team();
    await db().insert(customerPreferences).values({ userId: off.account.userId, recordDomains: false });
    const on = await team();
    const gateway = await start();
    await traffic(gateway, off);
    await gateway.close();
    const noDomains = await start(false);
    await traffic(noDomains, on);
    await noDomains.close();
    for (const customer of [off, on]) {
      const rows = await domains(customer.account.userId);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.domain === '')).toBe(true);
    }
  });
});
