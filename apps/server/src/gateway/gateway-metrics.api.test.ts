import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KB_PER_GB } from '@storefront/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, gatewayMain, type ServerProcess, serverMain, spawnProcess } from '../test/processes.ts';
import {
  connectThroughProxy,
  httpThroughProxy,
  socksThroughProxy,
  startTargetServer,
  type TargetServer,
} from '../test/proxy-client.ts';
import { createResidentialAccount } from '../test/residential-account.ts';
import { tempDir } from '../test/service.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

const reportLoads = fileURLToPath(new URL('../test/report-loads.ts', import.meta.url));

/**
 * A TCP relay to the test database that the test can cut and restore: the gateway's database "stops" without stopping
 * the PostgreSQL server other tests share.
 */
async function startDatabaseRelay(databaseUrl: string) {
  const upstream = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let up = true;
  const server = net.createServer((client) => {
    if (!up) {
      client.destroy();
      return;
    }
    const database = net.connect(Number(upstream.port || 5432), upstream.hostname);
    for (const socket of [client, database]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        database.destroy();
      });
    }
    client.pipe(database).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cut() {
      up = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      up = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The value of one sample of a Prometheus text answer (`name{labels}`), or undefined when it is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const get = async (port: number, path: string) => {
  const answer = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: answer.status, headers: answer.headers, text: await answer.text() };
};

/**
 * Waits until the gateway behind `metricsPort` has no open connection (its last bytes metered), then checks that its
 * byte counter holds exactly what the client sent and received; answers that last scrape.
 */
async function expectSettledAt(metricsPort: number, carried: { sent: number; received: number }): Promise<string> {
  let after = '';
  await expect
    .poll(
      async () => {
        after = (await get(metricsPort, '/metrics')).text;
        return sample(after, 'storefront_gateway_connections');
      },
      { timeout: 15_000, interval: 100 },
    )
    .toBe(0);
  expect(sample(after, 'storefront_gateway_bytes_total{direction="upload"}')).toBe(carried.sent);
  expect(sample(after, 'storefront_gateway_bytes_total{direction="download"}')).toBe(carried.received);
  return after;
}

/** A gateway on a free port taking this machine's targets, and its metrics listener on `metricsPort`. */
const gatewayAndMetrics = (metricsPort: number) => ({
  GATEWAY_HOST: '127.0.0.1',
  GATEWAY_PORT: '0',
  GATEWAY_ALLOW_PRIVATE: 'true',
  GATEWAY_CACHE_MS: '200',
  METRICS_HOST: '127.0.0.1',
  METRICS_PORT: String(metricsPort),
});

/** Processes of their own on one PostgreSQL: only there (the embedded database has one owner). */
describe.skipIf(process.env.TEST_DB !== 'postgres')('what the residential gateway tells Prometheus', () => {
  let t: TestApp;
  let target: TargetServer;
  let databaseUrl: string;
  const processes: ServerProcess[] = [];
  const folder = tempDir('storefront-gateway-metrics-');

  beforeAll(async () => {
    t = await createTestApp();
    target = await startTargetServer();
    if (t.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    databaseUrl = t.config.database.connectionString;
  });
  afterAll(async () => {
    await Promise.all(processes.map((child) => child.stop()));
    await target.close();
    await t.close();
    folder.cleanup();
  });

  /** Carries one HTTP request, one CONNECT tunnel and one SOCKS 5 tunnel; the bytes the client sent and received. */
  const carry = async (gatewayPort: number, metricsPort: number) => {
    const customer = await createResidentialAccount(t.database.db, { totalKb: KB_PER_GB });
    let during: Promise<string> | undefined;
    const plain = await httpThroughProxy(gatewayPort, `http://127.0.0.1:${target.port}/bytes?n=100000`, customer.auth);
    const tunnels = [
      // Scraped in the middle of a slow download: the tunnel is one of the open connections then.
      await connectThroughProxy(gatewayPort, `127.0.0.1:${target.port}`, customer.auth, '/bytes?n=2000000&delay=5', {
        onData: (received) => {
          if (received > 500_000) during ??= get(metricsPort, '/metrics').then((answer) => answer.text);
        },
      }),
      await socksThroughProxy(
        gatewayPort,
        { username: customer.username, password: customer.password },
        { host: '127.0.0.1', port: target.port },
        '/bytes?n=300000',
      ),
    ];
    expect([plain.body.length, ...tunnels.map((answer) => answer.tunnel?.body.length)]).toEqual([
      100_000, 2_000_000, 300_000,
    ]);
    const answers = [plain, ...tunnels];
    return {
      sent: answers.reduce((total, answer) => total + answer.sent, 0),
      received: answers.reduce((total, answer) => total + answer.received, 0),
      during: await during,
    };
  };

  it('a gateway on its own: metrics, liveness and readiness on its METRICS_PORT, closed on SIGTERM', async () => {
    const relay = await startDatabaseRelay(databaseUrl);
    const metricsPort = await freePort();
    const loads = path.join(folder.dir, 'gateway.loads');
    const gateway = await spawnProcess(
      gatewayMain,
      {
        // Every module it loads is written down (test/report-loads.ts).
        NODE_OPTIONS: `--import=${reportLoads}`,
        REPORT_LOADS_TO: loads,
        DATABASE_URL: relay.url,
        ...gatewayAndMetrics(metricsPort),
      },
      /residential gateway listening on port (\d+)/,
    );
    processes.push(gateway);
    try {
      const gatewayPort = Number(gateway.ready[1]);
      expect(gateway.output()).toContain(`metrics at http://127.0.0.1:${metricsPort}/metrics`);
      const before = (await get(metricsPort, '/metrics')).text;
      expect(sample(before, 'storefront_gateway_connections')).toBe(0);
      expect(sample(before, 'storefront_gateway_bytes_total{direction="upload"}')).toBe(0);
      expect(sample(before, 'storefront_gateway_bytes_total{direction="download"}')).toBe(0);
      expect(sample(before, 'storefront_gateway_refused_connections_total{reason="per_ip_limit"}')).toBe(0);
      expect(before).toContain('process_cpu_seconds_total');
      expect(sample(before, 'storefront_db_pool_connections{state="waiting"}')).toBe(0);
      // Nothing of the shop's own, and neither the query builder nor the shop's modules loaded for it.
      expect(before).not.toContain('storefront_checkouts_total');
      const loaded = readFileSync(loads, 'utf8');
      expect(loaded).toContain('/lib/metrics-gateway.ts');
      expect(loaded).not.toContain('/lib/metrics.ts');
      expect(loaded).not.toContain('/drizzle-orm/');
      // Nor the contract's index, which loads every schema and page's words (heap each full collection marks).
      expect(loaded).not.toContain('/contract/src/index.ts');

      expect(await get(metricsPort, '/health/live')).toMatchObject({ status: 200, text: '{"status":"ok"}' });
      const ready = await get(metricsPort, '/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect(JSON.parse(ready.text)).toEqual({
        status: 'ready',
        version: expect.any(String),
        checks: { database: { status: 'ok' }, gateway: { status: 'ok' } },
      });

      const carried = await carry(gatewayPort, metricsPort);
      expect(sample(carried.during ?? '', 'storefront_gateway_connections'), carried.during).toBeGreaterThanOrEqual(1);
      // Once every connection has closed (and its last bytes are metered), the counter holds exactly the client's bytes.
      await expectSettledAt(metricsPort, carried);

      // Its database gone: 503 naming the database, while liveness still answers; ready again once it is back.
      relay.cut();
      let down: { status: number; text: string } | undefined;
      await expect
        .poll(
          async () => {
            down = await get(metricsPort, '/health/ready');
            return down.status;
          },
          { timeout: 30_000, interval: 250 },
        )
        .toBe(503);
      expect(JSON.parse(down?.text ?? '')).toEqual({
        status: 'unavailable',
        version: expect.any(String),
        checks: { database: { status: 'down', reason: expect.any(String) }, gateway: { status: 'ok' } },
      });
      expect((await get(metricsPort, '/health/live')).status).toBe(200);
      relay.restore();
      await expect
        .poll(async () => (await get(metricsPort, '/health/ready')).status, { timeout: 30_000, interval: 250 })
        .toBe(200);

      expect(await gateway.stop()).toBe(0);
      await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
      expect(gateway.output()).toContain('"clean":true');
    } finally {
      await gateway.stop();
      await relay.close();
    }
  }, 120_000);

  it('a server running the gateway (GATEWAY_ENABLED) serves the gateway metrics with its own', async () => {
    const metricsPort = await freePort();
    const server = await spawnProcess(
      serverMain,
      {
        DATABASE_URL: databaseUrl,
        HOST: '127.0.0.1',
        PORT: '0',
        JOBS_INTERVAL_S: '0',
        WEB_DIST_DIR: '/nonexistent',
        SHUTDOWN_DRAIN_MS: '0',
        GATEWAY_ENABLED: 'true',
        ...gatewayAndMetrics(metricsPort),
      },
      /residential gateway listening on port (\d+)/,
    );
    processes.push(server);
    try {
      expect(server.output()).toContain(`metrics at http://127.0.0.1:${metricsPort}/metrics`);
      const gatewayPort = Number(server.ready[1]);
      const carried = await carry(gatewayPort, metricsPort);
      expect(sample(carried.during ?? '', 'storefront_gateway_connections'), carried.during).toBeGreaterThanOrEqual(1);
      const after = await expectSettledAt(metricsPort, carried);
      expect(after).toContain('storefront_checkouts_total');
      // The server's readiness stays its own (GET /api/health/ready); its metrics listener has no health paths.
      expect((await get(metricsPort, '/health/ready')).status).toBe(404);
      expect(await server.stop()).toBe(0);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
