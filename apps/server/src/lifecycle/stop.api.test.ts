import { cpSync } from 'node:fs';
import path from 'node:path';
import { BYTES_PER_KB, KB_PER_GB } from '@storefront/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { seedDatabase } from '../db/seed.ts';
import { connectThroughProxy, startTargetServer, type TargetServer } from '../test/proxy-client.ts';
import { createResidentialAccount, usedKbOf } from '../test/residential-account.ts';
import {
  completeAnswer,
  groupAlive,
  pidOfLine,
  processAlive,
  rawConnection,
  repoRoot,
  type Service,
  startService,
  tempDir,
} from '../test/service.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

// The server as an operator runs it (`npm start`, or node itself), stopped with SIGTERM or SIGINT while a request, an
// idle keep-alive connection and a gateway tunnel are open: no answer is cut, the tunnel's bytes are metered, the exit
// code is 0 and nothing of it is left running. On the embedded database (a fresh DATA_DIR each) and on PostgreSQL.
const onPostgres = process.env.TEST_DB === 'postgres';
const serverMain = path.join(repoRoot, 'apps/server/src/main.ts');

let t: TestApp | undefined;
let template: { dir: string; cleanup(): void };
let target: TargetServer;
let account: Awaited<ReturnType<typeof createResidentialAccount>>;
const services: Service[] = [];
const folders: { cleanup(): void }[] = [];

beforeAll(async () => {
  target = await startTargetServer();
  if (onPostgres) {
    t = await createTestApp();
    account = await createResidentialAccount(t.database.db, { totalKb: KB_PER_GB });
    return;
  }
  // One embedded database made ready once (migrated, seeded, with a residential customer), copied for each server.
  template = tempDir('storefront-stop-');
  const database = await openDatabase(embedded(template.dir));
  try {
    await database.migrate();
    await seedDatabase(database.db, loadConfig({ NODE_ENV: 'test', DATA_DIR: template.dir }));
    account = await createResidentialAccount(database.db, { totalKb: KB_PER_GB });
  } finally {
    await database.close();
  }
}, 120_000);

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.kill()));
});

afterAll(async () => {
  await target.close();
  await t?.close();
  template?.cleanup();
  for (const folder of folders.splice(0)) folder.cleanup();
});

function embedded(dataDir: string) {
  return { kind: 'pglite' as const, dataDir: path.join(dataDir, 'pglite'), chosenBy: 'DATA_DIR' as const };
}

/** The environment of one server: its own copy of the embedded database, or the test's PostgreSQL database. */
function serverEnv(extra: Record<string, string> = {}): { env: Record<string, string>; dataDir?: string } {
  const common = {
    HOST: '127.0.0.1',
    PORT: '0',
    GATEWAY_PORT: '0',
    GATEWAY_ALLOW_PRIVATE: 'true',
    GATEWAY_FLUSH_MS: '60000',
    LOG_LEVEL: 'info',
    // `node` itself runs in production (its default), which takes the sandbox only when told.
    PAYMENTS_SANDBOX: 'true',
    ...extra,
  };
  if (t && t.config.database.kind === 'postgres') {
    return {
      env: {
        ...common,
        DATABASE_URL: t.config.database.connectionString,
        AUTH_SECRET: 'a'.repeat(32),
        LOG_EMAILS: 'true',
        PAYMENTS_SANDBOX: 'true',
      },
    };
  }
  const copy = tempDir('storefront-stop-data-');
  folders.push(copy);
  cpSync(template.dir, copy.dir, { recursive: true });
  return { env: { ...common, DATA_DIR: copy.dir }, dataDir: copy.dir };
}

async function usedKb(dataDir: string | undefined): Promise<number> {
  if (t) return usedKbOf(t.database.db, account.userId);
  let database: Database | undefined;
  try {
    database = await openDatabase(embedded(dataDir ?? ''));
    return await usedKbOf(database.db, account.userId);
  } finally {
    await database?.close();
  }
}

async function started(service: Service) {
  services.push(service);
  const ready = await service.waitFor(/ready at .*\n/, 180_000);
  const line = ready[0];
  const port = Number(
    /"port":(\d+)/.exec(
      service
        .output()
        .split('\n')
        .find((l) => l.includes('ready at')) ?? '',
    )?.[1],
  );
  const gatewayPort = Number((await service.waitFor(/residential gateway listening on port (\d+)/))[1]);
  const pid = pidOfLine(service.output(), /ready at/);
  expect(line).toBeTruthy();
  expect(pid).toBeDefined();
  // The ready line is the one address printed: Fastify's own lines named interfaces a newcomer might open instead.
  expect(service.output()).not.toContain('Server listening');
  return { port, gatewayPort, pid: pid ?? 0 };
}

const signInBody = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/**
 * A request whose body is half sent: in flight until `finish`. It asks `Expect: 100-continue`, so the server's
 * "100 Continue" says it has read the headers and holds the request (no guess of how long that takes).
 */
async function requestInFlight(port: number) {
  const connection = await rawConnection(port);
  connection.write(
    `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Origin: http://localhost:${port}\r\nContent-Length: ${Buffer.byteLength(signInBody)}\r\n` +
      'Expect: 100-continue\r\n\r\n',
  );
  await waitUntil(() => connection.received().startsWith(CONTINUE), 10_000);
  connection.write(signInBody.slice(0, 10));
  const final = () => completeAnswer(connection.received().slice(CONTINUE.length));
  return {
    finish: () => connection.write(signInBody.slice(10)),
    answer: async () => {
      await waitUntil(() => final() !== undefined, 10_000);
      return final();
    },
    closed: connection.closed,
  };
}

/** A keep-alive connection that has had its answer and sits idle. */
async function idleKeepAlive(port: number) {
  const connection = await rawConnection(port);
  connection.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  await waitUntil(() => completeAnswer(connection.received()) !== undefined, 10_000);
  return connection;
}

function waitUntil(condition: () => boolean, timeoutMs: number) {
  return vi.waitFor(() => expect(condition()).toBe(true), { timeout: timeoutMs, interval: 20 });
}

describe('stopping the server', () => {
  it('npm start: SIGTERM to npm finishes the request in flight, closes keep-alive and tunnel, meters, exits 0', async () => {
    const { env, dataDir } = serverEnv({ SHUTDOWN_DRAIN_MS: '0' });
    const npm = startService('npm', ['start'], { cwd: repoRoot, env });
    const { port, gatewayPort, pid } = await started(npm);
    // npm runs node itself (exec), not a shell that would swallow the signal.
    expect(pid).not.toBe(npm.child.pid);
    const before = await usedKb(dataDir);

    const slow = await requestInFlight(port);
    const idle = await idleKeepAlive(port);
    let signalled = false;
    const transfer = connectThroughProxy(
      gatewayPort,
      `127.0.0.1:${target.port}`,
      account.auth,
      '/bytes?n=50000000&delay=5',
      {
        onData: (received) => {
          if (received > 1_000_000 && !signalled) {
            signalled = true;
            npm.signal('SIGTERM');
          }
        },
      },
    );
    await waitUntil(() => signalled, 20_000);
    // The server has begun to stop (listener closed, idle connections ended) before the slow request's body ends.
    await npm.waitFor(/stopping: finishing what is in flight/);
    slow.finish();
    const answer = await slow.answer();
    expect(answer?.status).toBeGreaterThanOrEqual(200);
    expect(answer?.body.length).toBeGreaterThan(0);
    // The idle keep-alive connection is ended by the server, after its one answer and nothing else.
    const idleSaw = await idle.closed;
    expect(completeAnswer(idleSaw)?.status).toBe(200);
    expect(idleSaw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    const tunnel = await transfer;
    expect(tunnel.tunnel?.cut).toBe(true);

    expect(await npm.exited, npm.output().slice(-4000)).toBe(0);
    expect(npm.output()).toMatch(/"msg":"stopped"/);
    expect(processAlive(pid)).toBe(false);
    expect(groupAlive(npm.child.pid ?? 0)).toBe(false);
    // Every byte the client saw was written to the account by the stop (no periodic write within 60 s).
    const metered = ((await usedKb(dataDir)) - before) * BYTES_PER_KB;
    expect(metered).toBeGreaterThanOrEqual(tunnel.sent + tunnel.received);
  }, 240_000);

  it('node itself: SIGINT drains for SHUTDOWN_DRAIN_MS with readiness at 503 while requests are still served', async () => {
    const { env } = serverEnv({ SHUTDOWN_DRAIN_MS: '1500' });
    const node = startService(process.execPath, [serverMain], { cwd: repoRoot, env });
    const { port } = await started(node);
    expect((await fetch(`http://127.0.0.1:${port}/api/health/ready`)).status).toBe(200);
    const slow = await requestInFlight(port);
    node.signal('SIGINT');
    await node.waitFor(/draining/);
    const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'draining' });
    const live = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(live.status).toBe(200);
    expect(live.headers.get('connection')).toBe('close');
    slow.finish();
    expect((await slow.answer())?.status).toBeGreaterThanOrEqual(200);
    expect(await node.exited).toBe(0);
    expect(groupAlive(node.child.pid ?? 0)).toBe(false);
  }, 120_000);

  // The database plays no part in giving up (the open HTTP connection holds the stop), so this runs once: on
  // PostgreSQL when the suite has it, else on the embedded database.
  it.runIf(onPostgres || !process.env.TEST_DATABASE_URL)(
    'gives up after SHUTDOWN_TIMEOUT_S, names what is still open and exits 1',
    async () => {
      const { env } = serverEnv({ SHUTDOWN_TIMEOUT_S: '1', SHUTDOWN_DRAIN_MS: '0' });
      const node = startService(process.execPath, [serverMain], { cwd: repoRoot, env });
      const { port } = await started(node);
      await requestInFlight(port); // never finished
      const stoppedAt = Date.now();
      node.signal('SIGTERM');
      expect(await node.exited).toBe(1);
      expect(Date.now() - stoppedAt).toBeLessThan(5000);
      expect(node.output()).toMatch(
        /not stopped within SHUTDOWN_TIMEOUT_S \(1 s\), still open: HTTP server \(1 connections open\)/,
      );
    },
    120_000,
  );
});
