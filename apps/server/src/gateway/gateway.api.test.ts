import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { BYTES_PER_KB, generateResidentialList, KB_PER_GB, parseResidentialLine } from '@storefront/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { type PrepareRequestFunctionOpts, Server } from 'proxy-chain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orders, residentialAccounts, residentialPool, residentialUsageDaily, users } from '../db/schema.ts';
import { registerGatewayMetrics } from '../lib/metrics-gateway.ts';
import { handlePaymentEvent } from '../modules/billing/handle-event.ts';
import { paidEvent, testBrand } from '../test/payments.ts';
import {
  basicAuth,
  closesWithin,
  connectThroughProxy,
  exchange,
  httpThroughProxy,
  proxyV1,
  startTargetServer,
  type TargetServer,
} from '../test/proxy-client.ts';
import { createResidentialAccount, usedKbOf } from '../test/residential-account.ts';
import { createTestApp, signUpCustomer, type TestApp } from '../test/test-app.ts';
import type { GatewayConfig } from './config.ts';
import { type Gateway, gatewayMessages, startGateway } from './gateway.ts';
import { type SqlClient, sqlClientOf } from './sql.ts';

const run = promisify(execFile);
// Against the machine's Redis (CI sets TEST_REDIS_URL=redis://127.0.0.1:6379); each test counts under its own prefix.
const redisUrl = process.env.TEST_REDIS_URL;
const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('residential gateway', () => {
  let t: TestApp;
  let target: TargetServer;
  let gatewayPort: number;
  const open: Gateway[] = [];

  const gatewayConfig = (overrides: Partial<GatewayConfig> = {}): GatewayConfig => ({
    ...t.config.gateway,
    host: '127.0.0.1',
    port: 0,
    allowPrivateTargets: true,
    flushMs: 60_000,
    cacheMs: 0,
    ...overrides,
  });
  const start = async (overrides: Partial<GatewayConfig> = {}) => {
    const gateway = await startGateway({ db: t.database.db, config: gatewayConfig(overrides), log: silent });
    open.push(gateway);
    return gateway;
  };

  const account = (totalKb: number, usedKb = 0) => createResidentialAccount(t.database.db, { totalKb, usedKb });
  const usedKb = (userId: string) => usedKbOf(t.database.db, userId);

  beforeAll(async () => {
    gatewayPort = await freePort();
    t = await createTestApp({ GATEWAY_PORT: String(gatewayPort), AUTH_RATE_LIMIT_PER_IP: '1000' });
    target = await startTargetServer();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((gateway) => gateway.close()));
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  it('carries plain HTTP and meters both directions exactly, written on close with the day row', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const answer = await httpThroughProxy(
      gateway.port,
      `http://127.0.0.1:${target.port}/bytes?n=300000`,
      customer.auth,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(300_000);
    await gateway.close();
    const bytes = answer.sent + answer.received;
    expect(await usedKb(customer.userId)).toBe(Math.ceil(bytes / BYTES_PER_KB));
    const days = await t.database.db
      .select()
      .from(residentialUsageDaily)
      .where(eq(residentialUsageDaily.userId, customer.userId));
    expect(days).toHaveLength(1);
    expect(days[0]?.usedKb).toBe(Math.ceil(bytes / BYTES_PER_KB));
  });

  it('counts for its metrics the bytes it meters, upload and download apart, and its open connections', async () => {
    const gateway = await start({ proxyProtocol: true });
    const registry = new Registry();
    registerGatewayMetrics(registry, gateway);
    const customer = await account(KB_PER_GB);
    const body = randomBytes(500_000);
    // A load balancer's PROXY header is not the customer's: neither metered nor counted.
    const upload = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/upload`, customer.auth, {
      method: 'POST',
      body,
      prefix: proxyV1('127.0.0.1'),
    });
    expect(upload.body.toString()).toBe('500000');
    let openDuring = -1;
    const download = await connectThroughProxy(
      gateway.port,
      `127.0.0.1:${target.port}`,
      customer.auth,
      '/bytes?n=1000000&delay=5',
      {
        prefix: proxyV1('127.0.0.1'),
        onData: (received) => {
          if (received > 200_000 && openDuring < 0) openDuring = gateway.connections();
        },
      },
    );
    expect(download.tunnel?.body.length).toBe(1_000_000);
    expect(openDuring).toBe(1);
    await expect.poll(() => gateway.connections()).toBe(0);
    expect(gateway.carried()).toEqual({
      upload: upload.sent + download.sent,
      download: upload.received + download.received,
    });
    const text = await registry.metrics();
    expect(text).toContain(`storefront_gateway_bytes_total{direction="upload"} ${upload.sent + download.sent}`);
    expect(text).toContain(
      `storefront_gateway_bytes_total{direction="download"} ${upload.received + download.received}`,
    );
    expect(text).toContain('storefront_gateway_connections 0');
    // The same sum the meter bills: written whole KB, the last one rounded up.
    await gateway.close();
    const { upload: up, download: down } = gateway.carried();
    expect(await usedKb(customer.userId)).toBe(Math.ceil((up + down) / BYTES_PER_KB));
  });

  it('carries CONNECT tunnels and uploads, metering both directions within 1 percent', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const download = await connectThroughProxy(
      gateway.port,
      `127.0.0.1:${target.port}`,
      customer.auth,
      '/bytes?n=1000000',
    );
    expect(download.status).toBe(200);
    expect(download.tunnel?.status).toBe(200);
    expect(download.tunnel?.body.length).toBe(1_000_000);
    const body = randomBytes(2_000_000);
    const upload = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/upload`, customer.auth, {
      method: 'POST',
      body,
    });
    expect(upload.body.toString()).toBe('2000000');
    await gateway.flush();
    const exact = download.sent + download.received + upload.sent + upload.received;
    const written = (await usedKb(customer.userId)) * BYTES_PER_KB;
    expect(Math.abs(written - exact) / exact).toBeLessThan(0.01);
  });

  it('answers 407 with Proxy-Authenticate for missing or wrong credentials, and carries nothing', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const url = `http://127.0.0.1:${target.port}/`;
    for (const auth of [undefined, basicAuth(customer.username, 'wrong'), basicAuth('nobody', customer.password)]) {
      const answer = await httpThroughProxy(gateway.port, url, auth);
      expect(answer.status).toBe(407);
      expect(answer.headers['proxy-authenticate']).toMatch(/^Basic realm=/);
      expect(answer.body.toString()).toBe(
        auth === undefined ? gatewayMessages.credentialsRequired : gatewayMessages.wrongCredentials,
      );
    }
    const tunnel = await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, basicAuth('x', 'y'), '/');
    expect(tunnel.status).toBe(407);
    await gateway.flush();
    expect(await usedKb(customer.userId)).toBe(0);
  });

  describe('failed authentications per source address', () => {
    const url = () => `http://127.0.0.1:${target.port}/`;
    /** The database as the gateway sees it, counting the account reads (selects) made through it. */
    const countingDb = () => {
      const counted = { selects: 0 };
      const client = sqlClientOf(t.database.db);
      const db: SqlClient = {
        query: (text, params) => {
          if (/^\s*select/i.test(text)) counted.selects++;
          return client.query(text, params);
        },
      };
      return { db, counted };
    };
    const recordingLog = () => {
      const warnings: string[] = [];
      const log = {
        ...silent,
        warn: (fields: unknown, message?: string) => warnings.push(`${JSON.stringify(fields)} ${message ?? ''}`),
        child: () => log,
      } as unknown as FastifyBaseLogger;
      return { log, warnings };
    };

    it('refuses an address after 20 failures for the window, good credentials too, with 429 and Retry-After', async () => {
      const { db, counted } = countingDb();
      const { log, warnings } = recordingLog();
      const gateway = await startGateway({ db, config: gatewayConfig({ cacheMs: 60_000 }), log });
      open.push(gateway);
      const customer = await account(KB_PER_GB);
      // The same unknown username again is answered from the negative cache, not the database.
      for (let i = 0; i < 2; i++) {
        expect((await httpThroughProxy(gateway.port, url(), basicAuth('nobody-here', 'x'))).status).toBe(407);
      }
      expect(counted.selects).toBe(1);
      for (let i = 2; i < 20; i++) {
        const auth = i % 2 === 0 ? basicAuth(customer.username, `wrong-${i}`) : basicAuth(`guess${i}`, 'x');
        expect((await httpThroughProxy(gateway.port, url(), auth)).status, `attempt ${i + 1}`).toBe(407);
      }
      const readsBefore = counted.selects;
      for (const auth of [basicAuth(`guess-after`, 'x'), basicAuth(`guess-after-2`, 'x'), customer.auth]) {
        const refused = await httpThroughProxy(gateway.port, url(), auth);
        expect(refused.status).toBe(429);
        expect(refused.body.toString()).toBe(gatewayMessages.tooManyFailures(10));
        const retryAfter = Number(refused.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(590);
        expect(retryAfter).toBeLessThanOrEqual(600);
      }
      const tunnel = await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, customer.auth, '/');
      expect(tunnel.status).toBe(429);
      expect(Number(tunnel.headers['retry-after'])).toBeGreaterThan(0);
      // A refused address costs no database read, whatever username it tries.
      expect(counted.selects).toBe(readsBefore);
      // Another source address is not affected.
      const other = await httpThroughProxy(gateway.port, url(), customer.auth, { localAddress: '127.0.0.2' });
      expect(other.status).toBe(200);
      // One warning line for the blocked address, naming it and neither the usernames nor the passwords tried.
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('127.0.0.1');
      expect(warnings[0]).not.toMatch(new RegExp(`guess|wrong-|nobody|${customer.username}|${customer.password}`));
    });

    it('does not count a request without credentials, and lets the address in again after the window', async () => {
      const gateway = await start({ authFailures: { ...t.config.gateway.authFailures, perIp: 3, windowMs: 500 } });
      const customer = await account(KB_PER_GB);
      for (let i = 0; i < 5; i++) expect((await httpThroughProxy(gateway.port, url(), undefined)).status).toBe(407);
      for (let i = 0; i < 3; i++) {
        expect((await httpThroughProxy(gateway.port, url(), basicAuth(customer.username, 'no'))).status).toBe(407);
      }
      expect((await httpThroughProxy(gateway.port, url(), customer.auth)).status).toBe(429);
      await expect
        .poll(async () => (await httpThroughProxy(gateway.port, url(), customer.auth)).status, { timeout: 3_000 })
        .toBe(200);
    });

    it.runIf(redisUrl)('counts the failures of every gateway together in Redis', async () => {
      const keyPrefix = `storefront-test-${randomBytes(6).toString('hex')}:`;
      const authFailures = { ...t.config.gateway.authFailures, redis: { url: redisUrl ?? '', keyPrefix } };
      const { log, warnings } = recordingLog();
      const gateways = await Promise.all(
        [0, 1].map(async () => {
          const gateway = await startGateway({ db: t.database.db, config: gatewayConfig({ authFailures }), log });
          open.push(gateway);
          return gateway;
        }),
      );
      const customer = await account(KB_PER_GB);
      const redis = new Redis(redisUrl ?? '');
      try {
        for (let i = 0; i < 20; i++) {
          const gateway = gateways[i % 2] as Gateway;
          const answer = await httpThroughProxy(gateway.port, url(), basicAuth(customer.username, `wrong-${i}`));
          expect(answer.status, `attempt ${i + 1}`).toBe(407);
        }
        for (const gateway of gateways) {
          const refused = await httpThroughProxy(gateway.port, url(), customer.auth);
          expect(refused.status).toBe(429);
          expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        }
        expect(await redis.keys(`${keyPrefix}*`)).toHaveLength(1);
        expect(warnings).toHaveLength(1);
        const other = await httpThroughProxy(gateways[1]?.port ?? 0, url(), customer.auth, {
          localAddress: '127.0.0.2',
        });
        expect(other.status).toBe(200);
      } finally {
        const keys = await redis.keys(`${keyPrefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      }
    });
  });

  describe('refused connections', () => {
    it('closes a refused CONNECT (400, 402, 403, 407, an outbound refusal), not only its own side', async () => {
      const gateway = await start();
      const strict = await start({ allowPrivateTargets: false });
      const customer = await account(KB_PER_GB);
      const usedUp = await account(100, 100);
      const blocked = await account(KB_PER_GB);
      await t.database.db.update(users).set({ banned: true }).where(eq(users.id, blocked.userId));
      const authority = `127.0.0.1:${target.port}`;
      const refusals: [number, Gateway, string, string | undefined][] = [
        [400, gateway, `127.0.0.1:0`, customer.auth],
        [402, gateway, authority, usedUp.auth],
        [403, gateway, authority, blocked.auth],
        [407, gateway, authority, undefined],
        [407, gateway, authority, basicAuth(customer.username, 'wrong')],
        // The target is a private address: refused on the way out.
        [403, strict, authority, customer.auth],
      ];
      for (const [status, where, hostPort, auth] of refusals) {
        // The client keeps its side open, as one that would hold the connection for as long as it likes.
        const answer = await connectThroughProxy(where.port, hostPort, auth, '/', { halfOpen: true });
        try {
          expect(answer.status).toBe(status);
          expect(answer.headers.connection).toBe('close');
          await expect.poll(() => where.connections(), { message: `${status} ${auth}`, timeout: 1000 }).toBe(0);
        } finally {
          answer.socket?.destroy();
        }
      }
    });

    it('closes a refused request that declares a body soon after the 407, without reading that body', async () => {
      const gateway = await start();
      const uploadedBefore = target.uploaded();
      const client = net.connect(gateway.port, '127.0.0.1');
      client.on('error', () => {});
      await once(client, 'connect');
      const received: Buffer[] = [];
      let answeredAt = 0;
      client.on('data', (chunk: Buffer) => {
        received.push(chunk);
        answeredAt ||= Date.now();
      });
      client.write(
        `POST http://127.0.0.1:${target.port}/upload HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n` +
          'Content-Length: 1048576\r\n\r\n',
      );
      // A byte at a time, as a client holding the connection would send its body.
      const trickle = setInterval(() => client.write('x'), 50);
      let closedAt = 0;
      try {
        expect(await closesWithin(client, 3000), 'closed by the gateway').toBe(true);
        closedAt = Date.now();
      } finally {
        clearInterval(trickle);
        client.destroy();
      }
      const answer = Buffer.concat(received).toString('latin1');
      expect(answer).toMatch(/^HTTP\/1\.1 407 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(closedAt - answeredAt).toBeLessThan(1000);
      await expect.poll(() => gateway.connections()).toBe(0);
      expect(target.uploaded() - uploadedBefore).toBe(0);
    });

    it('closes a refused request that asks to switch protocols (Upgrade), whatever the client sends after', async () => {
      const gateway = await start();
      const client = net.connect(gateway.port, '127.0.0.1');
      client.on('error', () => {});
      await once(client, 'connect');
      const received: Buffer[] = [];
      client.on('data', (chunk: Buffer) => received.push(chunk));
      client.write(
        `GET http://127.0.0.1:${target.port}/ HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n` +
          'Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
      );
      const trickle = setInterval(() => client.write('x'), 50);
      try {
        expect(await closesWithin(client, 3000), 'closed by the gateway').toBe(true);
      } finally {
        clearInterval(trickle);
        client.destroy();
      }
      expect(Buffer.concat(received).toString('latin1')).toMatch(/^HTTP\/1\.1 407 /);
      await expect.poll(() => gateway.connections()).toBe(0);
    });

    it('keeps a kept-alive connection after a 407 without a body, for the retry with credentials', async () => {
      const gateway = await start();
      const customer = await account(KB_PER_GB);
      const client = net.connect(gateway.port, '127.0.0.1');
      client.on('error', () => {});
      let text = '';
      client.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        client.emit('text');
      });
      /** Waits until what the gateway sent so far ends with `end`. */
      const until = async (end: string) => {
        while (!text.endsWith(end)) await once(client, 'text');
      };
      const request = (auth?: string) =>
        `GET http://127.0.0.1:${target.port}/bytes?n=5 HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n` +
        `${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`;
      try {
        client.write(request());
        await until(`\r\n\r\n${gatewayMessages.credentialsRequired}`);
        expect(text).toMatch(/^HTTP\/1\.1 407 /);
        expect(text.toLowerCase()).toContain('connection: keep-alive');
        client.write(request(customer.auth));
        await until('\r\n\r\nxxxxx');
        expect(text).toMatch(/HTTP\/1\.1 200 /);
        expect(gateway.connections()).toBe(1);
      } finally {
        client.destroy();
      }
    });

    /** A connection to the gateway that says nothing (after `prefix`, a PROXY header), from `localAddress`. */
    const idle = async (gateway: Gateway, prefix?: Buffer, localAddress = '127.0.0.1') => {
      const socket = net.connect({ port: gateway.port, host: '127.0.0.1', localAddress });
      socket.on('error', () => {});
      await once(socket, 'connect');
      if (prefix) socket.write(prefix);
      return socket;
    };

    it('closes at once a connection past GATEWAY_MAX_CONNECTIONS_PER_IP from one address, and counts it', async () => {
      const gateway = await start({ maxConnectionsPerIp: 3 });
      const registry = new Registry();
      registerGatewayMetrics(registry, gateway);
      const customer = await account(KB_PER_GB);
      const held: net.Socket[] = [];
      try {
        for (let i = 0; i < 3; i++) held.push(await idle(gateway));
        await expect.poll(() => gateway.connections()).toBe(3);
        const over = await idle(gateway);
        held.push(over);
        expect(await closesWithin(over, 1000), 'one too many, closed').toBe(true);
        expect(gateway.connections()).toBe(3);
        expect(await registry.metrics()).toContain(
          'storefront_gateway_refused_connections_total{reason="per_ip_limit"} 1',
        );
        // Another address is not affected; this one is let in again once one of its connections closes.
        const other = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/`, customer.auth, {
          localAddress: '127.0.0.2',
        });
        expect(other.status).toBe(200);
        held[0]?.destroy();
        await expect.poll(() => gateway.connections()).toBe(2);
        const again = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/`, customer.auth);
        expect(again.status).toBe(200);
        expect(held.slice(1, 3).map((socket) => socket.destroyed)).toEqual([false, false]);
      } finally {
        for (const socket of held) socket.destroy();
      }
    });

    it("behind a load balancer counts the customer's address from the PROXY header, an IPv6 /64 as one", async () => {
      const gateway = await start({ proxyProtocol: true, maxConnectionsPerIp: 2 });
      const held: net.Socket[] = [];
      const hold = async (ip: string) => {
        const socket = await idle(gateway, proxyV1(ip));
        held.push(socket);
        return socket;
      };
      try {
        // Every connection comes from the balancer's address: only the addresses it names are counted.
        await hold('203.0.113.7');
        await hold('2001:db8:1:2::5');
        await hold('2001:db8:1:2::6');
        await hold('203.0.113.7');
        await expect.poll(() => gateway.connections()).toBe(4);
        for (const ip of ['203.0.113.7', '2001:db8:1:2::7']) {
          expect(await closesWithin(await hold(ip), 1000), ip).toBe(true);
        }
        const neighbour = await hold('2001:db8:1:3::5');
        await expect.poll(() => gateway.connections()).toBe(5);
        expect(neighbour.destroyed).toBe(false);
        expect(gateway.refused()).toEqual({ perIpLimit: 2 });
      } finally {
        for (const socket of held) socket.destroy();
      }
    });
  });

  it('refuses an account with no data left, saying so and where to buy more', async () => {
    const gateway = await start();
    const customer = await account(1000, 1000);
    const answer = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/`, customer.auth);
    expect(answer.status).toBe(402);
    expect(answer.body.toString()).toBe(gatewayMessages.usedUp('http://localhost:3000/dashboard/purchase'));
    const tunnel = await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, customer.auth, '/');
    expect(tunnel.status).toBe(402);
  });

  it('cuts a download that crosses the limit within 1 MB, and refuses the next request', async () => {
    const gateway = await start();
    const customer = await account(512);
    const limit = 512 * BYTES_PER_KB;
    const answer = await connectThroughProxy(
      gateway.port,
      `127.0.0.1:${target.port}`,
      customer.auth,
      '/bytes?n=50000000',
    );
    expect(answer.tunnel?.cut).toBe(true);
    expect(answer.received).toBeGreaterThan(limit / 2);
    expect(answer.sent + answer.received).toBeLessThan(limit + 1024 * 1024);
    const next = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/`, customer.auth);
    expect(next.status).toBe(402);
    await gateway.close();
    expect(await usedKb(customer.userId)).toBeGreaterThanOrEqual(512);
  });

  it('takes a purchase into account within the cache time', async () => {
    const gateway = await start({ cacheMs: 200 });
    const customer = await account(10, 10);
    const url = `http://127.0.0.1:${target.port}/`;
    expect((await httpThroughProxy(gateway.port, url, customer.auth)).status).toBe(402);
    await t.database.db
      .update(residentialAccounts)
      .set({ totalKb: KB_PER_GB })
      .where(eq(residentialAccounts.userId, customer.userId));
    // Asked again until the change shows, for at most the cache time and a margin for a busy machine.
    const within = { timeout: 200 + 1_000, interval: 50 };
    await expect.poll(async () => (await httpThroughProxy(gateway.port, url, customer.auth)).status, within).toBe(200);
    await t.database.db.update(users).set({ banned: true }).where(eq(users.id, customer.userId));
    await expect
      .poll(async () => {
        const blocked = await httpThroughProxy(gateway.port, url, customer.auth);
        return [blocked.status, blocked.body.toString()];
      }, within)
      .toEqual([403, gatewayMessages.blocked]);
  });

  it('cuts the open tunnels of an account within the cache time once it is banned, gone, re-passworded or used up', async () => {
    const cacheMs = 400;
    const gateway = await start({ cacheMs });
    const db = t.database.db;
    const changes: [string, (userId: string) => Promise<unknown>][] = [
      ['banned', (userId) => db.update(users).set({ banned: true }).where(eq(users.id, userId))],
      [
        'used up elsewhere (another gateway, or a refund taking the data back)',
        (userId) =>
          db
            .update(residentialAccounts)
            .set({ usedKb: sql`${residentialAccounts.totalKb}` })
            .where(eq(residentialAccounts.userId, userId)),
      ],
      [
        'password changed',
        (userId) =>
          db.update(residentialAccounts).set({ password: 'rotated' }).where(eq(residentialAccounts.userId, userId)),
      ],
      ['account gone', (userId) => db.delete(residentialAccounts).where(eq(residentialAccounts.userId, userId))],
    ];
    await Promise.all(
      changes.map(async ([change, apply]) => {
        const customer = await account(KB_PER_GB);
        let changedAt = 0;
        let deadline: NodeJS.Timeout | undefined;
        // A download that would run for about a minute: it ends early only if someone closes it.
        const transfer = await connectThroughProxy(
          gateway.port,
          `127.0.0.1:${target.port}`,
          customer.auth,
          '/bytes?n=200000000&delay=20',
          {
            onData: (received, socket) => {
              if (received < 200_000 || changedAt !== 0) return;
              changedAt = -1;
              void apply(customer.userId).then(() => {
                changedAt = Date.now();
                // Past the deadline the client hangs up itself, and the timing below fails.
                deadline = setTimeout(() => socket.destroy(), cacheMs + 2_000);
              });
            },
          },
        );
        const closedAfter = Date.now() - changedAt;
        clearTimeout(deadline);
        expect(changedAt, change).toBeGreaterThan(0);
        expect(transfer.tunnel?.cut, change).toBe(true);
        // The account is read again before its read is cacheMs old; what is added is the query and the event loop.
        expect(closedAfter, change).toBeLessThan(cacheMs + 500);
      }),
    );
    await expect.poll(() => gateway.connections()).toBe(0);
  });

  it("writes every other account's bytes when one account was deleted with bytes not yet written", async () => {
    const gateway = await start();
    const kept = await account(KB_PER_GB);
    const deleted = await account(KB_PER_GB);
    for (const customer of [kept, deleted]) {
      const answer = await httpThroughProxy(
        gateway.port,
        `http://127.0.0.1:${target.port}/bytes?n=100000`,
        customer.auth,
      );
      expect(answer.status).toBe(200);
    }
    await t.database.db.delete(residentialAccounts).where(eq(residentialAccounts.userId, deleted.userId));
    await gateway.flush();
    expect(await usedKb(kept.userId)).toBeGreaterThanOrEqual(97);
  });

  it('lets a customer through once a ban with an expiry has run out, and refuses one whose ban is running', async () => {
    const gateway = await start();
    const url = `http://127.0.0.1:${target.port}/`;
    const expired = await account(KB_PER_GB);
    const running = await account(KB_PER_GB);
    const ban = (userId: string, banExpires: Date) =>
      t.database.db.update(users).set({ banned: true, banExpires }).where(eq(users.id, userId));
    await ban(expired.userId, new Date(Date.now() - 1000));
    await ban(running.userId, new Date(Date.now() + 3_600_000));
    expect((await httpThroughProxy(gateway.port, url, expired.auth)).status).toBe(200);
    const refused = await httpThroughProxy(gateway.port, url, running.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.toString()).toBe(gatewayMessages.blocked);
  });

  it('refuses loopback and private targets unless allowed', async () => {
    const gateway = await start({ allowPrivateTargets: false });
    const customer = await account(KB_PER_GB);
    for (const url of [
      `http://127.0.0.1:${target.port}/`,
      `http://localhost:${target.port}/`,
      'http://10.1.2.3/',
      'http://[::1]:80/',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const answer = await httpThroughProxy(gateway.port, url, customer.auth);
      expect(answer.status, url).toBe(403);
      expect(answer.body.toString(), url).toMatch(/does not connect to/);
    }
    for (const hostPort of [
      '192.168.1.1:443',
      `[::ffff:127.0.0.1]:${target.port}`,
      `[::127.0.0.1]:${target.port}`,
      `[64:ff9b::7f00:1]:${target.port}`,
      `2130706433:${target.port}`,
      `0x7f.1:${target.port}`,
      '192.0.2.1:443',
      '[2001:db8::1]:443',
    ]) {
      const tunnel = await connectThroughProxy(gateway.port, hostPort, customer.auth, '/');
      expect(tunnel.status, hostPort).toBe(403);
    }
  });

  it("refuses the host's own address (plain HTTP, CONNECT, IPv4-mapped IPv6) to a server listening on 0.0.0.0", async () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address;
    if (!own) throw new Error('this test needs a non-loopback IPv4 address on the machine');
    const local = await startTargetServer('0.0.0.0');
    try {
      const customer = await account(KB_PER_GB);
      // Reachable through a gateway that may go anywhere: the refusal below is the egress rule's, not the network's.
      const open = await start({ allowPrivateTargets: true });
      expect((await httpThroughProxy(open.port, `http://${own}:${local.port}/`, customer.auth)).status).toBe(200);
      const gateway = await start({ allowPrivateTargets: false });
      for (const host of [own, `[::ffff:${own}]`]) {
        const plain = await httpThroughProxy(gateway.port, `http://${host}:${local.port}/`, customer.auth);
        expect(plain.status, host).toBe(403);
        expect(plain.body.toString(), host).toMatch(/does not connect to/);
        const tunnel = await connectThroughProxy(gateway.port, `${host}:${local.port}`, customer.auth, '/');
        expect(tunnel.status, host).toBe(403);
      }
    } finally {
      await local.close();
    }
  });

  it('hands a slow reader every byte in order, directly and through http, https and SOCKS providers', async () => {
    // A tunnel's TCP connection reads the target into its own buffers (upstream.ts, Onward): a client slower than its
    // target must get every byte as sent, not a buffer read into again while its write was still queued. The target
    // speaks first, so through a SOCKS provider its first bytes come with the provider's last handshake answer and must
    // stay first.
    const payload = randomBytes(16 * 1024 * 1024);
    const source = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.end(payload);
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    const sourcePort = (source.address() as net.AddressInfo).port;
    const slowly = async (gateway: Gateway, auth: string) => {
      let next = 1024 * 1024;
      const answer = await exchange(
        gateway.port,
        `CONNECT 127.0.0.1:${sourcePort} HTTP/1.1\r\nProxy-Authorization: ${auth}\r\n\r\n`,
        {
          onData: (received, socket) => {
            if (received < next) return;
            next += 1024 * 1024;
            socket.pause();
            setTimeout(() => socket.resume(), 20);
          },
        },
      );
      expect(answer.status).toBe(200);
      return answer.body;
    };
    // The https provider: TLS in front of the http one, with a certificate for 127.0.0.1 this process trusts.
    const folder = await mkdtemp(path.join(os.tmpdir(), 'gateway-tls-'));
    await run('openssl', [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', `${folder}/key.pem`, '-out', `${folder}/cert.pem`],
    ]);
    const cert = await readFile(`${folder}/cert.pem`, 'utf8');
    const trusted = tls.getCACertificates('default');
    tls.setDefaultCACertificates([...trusted, cert]);
    const servers: net.Server[] = [source];
    try {
      const provider = await start();
      const providerAccount = await account(KB_PER_GB);
      const { username, password } = providerAccount;
      const customer = await account(KB_PER_GB);
      const terminator = tls.createServer({ key: await readFile(`${folder}/key.pem`), cert }, (socket) => {
        const onward = net.connect(provider.port, '127.0.0.1');
        socket.pipe(onward).pipe(socket);
        socket.on('error', () => onward.destroy());
        onward.on('error', () => socket.destroy());
      });
      servers.push(terminator);
      await new Promise<void>((resolve) => terminator.listen(0, '127.0.0.1', resolve));
      const providers = {
        http: provider.port,
        https: (terminator.address() as net.AddressInfo).port,
        socks5: provider.port,
      };
      expect((await slowly(provider, providerAccount.auth)).equals(payload), 'directly').toBe(true);
      for (const [scheme, port] of Object.entries(providers)) {
        const gateway = await start({
          upstream: { url: `${scheme}://${username}:${password}@127.0.0.1:${port}`, usernameTemplate: '' },
        });
        const got = await slowly(gateway, customer.auth);
        expect(got.equals(payload), `through a ${scheme} provider`).toBe(true);
      }
    } finally {
      tls.setDefaultCACertificates(trusted);
      for (const server of servers) {
        server.close();
      }
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('answers 502 when the provider ends the connection before answering CONNECT', async () => {
    const silentProvider = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.end());
    });
    await new Promise<void>((resolve) => silentProvider.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silentProvider.address() as net.AddressInfo).port;
      const gateway = await start({ upstream: { url: `http://u:p@127.0.0.1:${port}`, usernameTemplate: '' } });
      const customer = await account(KB_PER_GB);
      const answer = await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, customer.auth, '/');
      expect(answer.status).toBe(502);
      expect(answer.body.toString()).toContain('closed the connection');
    } finally {
      await new Promise((resolve) => silentProvider.close(resolve));
    }
  });

  it('drops its connection to a provider that has not answered yet when the customer leaves or the gateway closes', async () => {
    // A provider that takes connections and reads what it is sent but never answers (neither CONNECT nor SOCKS).
    const held = new Set<net.Socket>();
    const mute = net.createServer((socket) => {
      held.add(socket);
      socket.on('error', () => {});
      socket.once('data', () => mute.emit('asked', socket));
    });
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const customer = await account(KB_PER_GB);
    /**
     * A CONNECT (or a plain-HTTP request) through `gateway`, once the provider has been asked; and whether the
     * provider's side closes soon.
     */
    const waitingTunnel = async (gateway: Gateway, kind: 'CONNECT' | 'plain HTTP' = 'CONNECT') => {
      const asked = new Promise<net.Socket>((resolve) => mute.once('asked', resolve));
      const client = net.connect(gateway.port, '127.0.0.1');
      client.on('error', () => {});
      const authority = `127.0.0.1:${target.port}`;
      client.write(
        `${kind === 'CONNECT' ? `CONNECT ${authority}` : `GET http://${authority}/`} HTTP/1.1\r\n` +
          `Host: ${authority}\r\nProxy-Authorization: ${customer.auth}\r\n\r\n`,
      );
      const waiting = await asked;
      // Without the drop it stays open until the gateway's 30 s limit for an answer.
      const droppedSoon = Promise.race([
        new Promise<boolean>((resolve) => waiting.once('close', () => resolve(true))),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000)),
      ]);
      return { client, droppedSoon };
    };
    try {
      const port = (mute.address() as net.AddressInfo).port;
      for (const scheme of ['http', 'socks5']) {
        const gateway = await start({ upstream: { url: `${scheme}://u:p@127.0.0.1:${port}`, usernameTemplate: '' } });
        for (const kind of ['CONNECT', 'plain HTTP'] as const) {
          const left = await waitingTunnel(gateway, kind);
          // Gone for good (a reset; a client that only ends its side may still want its answer, as in a tunnel).
          left.client.resetAndDestroy();
          expect(await left.droppedSoon, `the customer left, ${kind} through a ${scheme} provider`).toBe(true);
        }
        const cut = await waitingTunnel(gateway);
        await gateway.close();
        expect(await cut.droppedSoon, `the gateway closed, through a ${scheme} provider`).toBe(true);
      }
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => mute.close(resolve));
    }
  });

  it('carries plain HTTP through a SOCKS provider, never around it', async () => {
    // The provider is another gateway, which meters what goes through it.
    const provider = await start();
    const providerAccount = await account(KB_PER_GB);
    const customer = await account(KB_PER_GB);
    const { username, password } = providerAccount;
    const gateway = await start({
      upstream: { url: `socks5://${username}:${password}@127.0.0.1:${provider.port}`, usernameTemplate: '' },
    });
    const answer = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/bytes?n=65536`, customer.auth);
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(65_536);
    await provider.flush();
    expect(await usedKb(providerAccount.userId)).toBeGreaterThanOrEqual(64);
    // A provider that cannot be reached: refused, not carried from the gateway's own address.
    const deadPort = await freePort();
    const cutOff = await start({ upstream: { url: `socks5://u:p@127.0.0.1:${deadPort}`, usernameTemplate: '' } });
    const refused = await httpThroughProxy(cutOff.port, `http://127.0.0.1:${target.port}/`, customer.auth);
    expect(refused.status).toBe(502);
  });

  it('says the provider could not be reached, and answers at once when it closes during its handshake', async () => {
    const customer = await account(KB_PER_GB);
    const deadPort = await freePort();
    for (const scheme of ['http', 'socks5']) {
      const gateway = await start({ upstream: { url: `${scheme}://u:p@127.0.0.1:${deadPort}`, usernameTemplate: '' } });
      const answer = await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, customer.auth, '/');
      expect(answer.status, scheme).toBe(502);
      // The target did not refuse anything: the provider is what failed.
      expect(answer.body.toString(), scheme).toBe('The upstream provider could not be reached.');
    }
    // A SOCKS 5 provider that fails at one step of its handshake (greeting, password, request), each failure named.
    const failures: { how: string; at: 1 | 2 | 3; fail: (socket: net.Socket) => void; told: string }[] = [
      {
        how: 'ends after the greeting',
        at: 1,
        fail: (s) => s.end(),
        told: 'The upstream provider closed the connection.',
      },
      {
        how: 'ends after the request',
        at: 3,
        fail: (s) => s.end(),
        told: 'The upstream provider closed the connection.',
      },
      {
        how: 'resets after the greeting',
        at: 1,
        fail: (s) => s.resetAndDestroy(),
        told: 'The upstream provider closed the connection.',
      },
      {
        how: 'resets after the request',
        at: 3,
        fail: (s) => s.resetAndDestroy(),
        told: 'The upstream provider closed the connection.',
      },
      {
        how: 'refuses the password',
        at: 2,
        fail: (s) => s.end(Buffer.from([1, 1])),
        told: "The upstream provider refused the gateway's credentials.",
      },
      {
        how: 'answers as no SOCKS proxy',
        at: 1,
        fail: (s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n'),
        told: 'The upstream provider does not answer as a SOCKS proxy.',
      },
      {
        how: 'refuses the request (the target refused it)',
        at: 3,
        fail: (s) => s.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])),
        told: `The connection to 127.0.0.1:${target.port} failed.`,
      },
    ];
    for (const { how, at, fail, told } of failures) {
      const failing = net.createServer((socket) => {
        socket.on('error', () => {});
        let messages = 0;
        socket.on('data', () => {
          messages++;
          if (messages === at) fail(socket);
          else socket.write(Buffer.from(messages === 1 ? [5, 2] : [1, 0]));
        });
      });
      await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
      try {
        const port = (failing.address() as net.AddressInfo).port;
        const gateway = await start({ upstream: { url: `socks5://u:p@127.0.0.1:${port}`, usernameTemplate: '' } });
        const started = Date.now();
        const answer = await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, customer.auth, '/');
        expect(answer.status, how).toBe(502);
        expect(answer.body.toString(), how).toBe(told);
        // Not the 30 s limit: the provider's end is seen during the handshake.
        expect(Date.now() - started, how).toBeLessThan(5000);
      } finally {
        await new Promise((resolve) => failing.close(resolve));
      }
    }
  });

  it('carries 200 concurrent connections and meters every one', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        if (index % 2 === 1) {
          return httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/bytes?n=65536`, customer.auth);
        }
        const tunnel = await connectThroughProxy(
          gateway.port,
          `127.0.0.1:${target.port}`,
          customer.auth,
          '/bytes?n=65536',
        );
        return { ...tunnel, body: tunnel.tunnel?.body ?? Buffer.alloc(0) };
      }),
    );
    for (const answer of answers) expect(answer.body.length).toBe(65_536);
    await gateway.close();
    const exact = answers.reduce((sum, answer) => sum + answer.sent + answer.received, 0);
    expect(await usedKb(customer.userId)).toBe(Math.ceil(exact / BYTES_PER_KB));
  });

  it('goes through the upstream provider with the targeting in its username', async () => {
    const seen: PrepareRequestFunctionOpts[] = [];
    const upstream = new Server({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: (options) => {
        seen.push(options);
        return options.password === 'provider-secret' ? {} : { requestAuthentication: true };
      },
    });
    await upstream.listen();
    try {
      const gateway = await start({
        upstream: {
          url: `http://prov:provider-secret@127.0.0.1:${upstream.port}`,
          usernameTemplate: '{username}-country-{country}-session-{session}-lifetime-{duration}m[-{hard}]',
        },
      });
      const customer = await account(KB_PER_GB);
      const [staticLine] = generateResidentialList(
        { endpoint: `127.0.0.1:${gateway.port}`, username: customer.username, password: customer.password },
        { count: 1, type: 'static', country: 'DE' },
      );
      const line = parseResidentialLine(staticLine ?? '');
      const user = staticLine?.split(':')[2] ?? '';
      const viaHttp = await httpThroughProxy(
        gateway.port,
        `http://127.0.0.1:${target.port}/bytes?n=1000`,
        basicAuth(user, customer.password),
      );
      expect(viaHttp.status).toBe(200);
      const viaTunnel = await connectThroughProxy(
        gateway.port,
        `127.0.0.1:${target.port}`,
        basicAuth(customer.username, customer.password),
        '/bytes?n=1000',
      );
      expect(viaTunnel.tunnel?.status).toBe(200);
      expect(seen.map((options) => options.username)).toEqual([
        `prov-country-de-session-${line?.sessionId}-lifetime-60m-hard`,
        'prov',
      ]);
    } finally {
      await upstream.close(true);
    }
  });

  it('works with a generated line as curl -x credentials, after a real purchase', async () => {
    const gateway = await start({ port: gatewayPort });
    const db = t.database.db;
    await db.update(residentialPool).set({ bandwidthLimitMb: 10_000 }).where(eq(residentialPool.id, 1));
    const customer = await signUpCustomer(t, `curl-${randomBytes(3).toString('hex')}@example.com`);
    const [order] = await db
      .insert(orders)
      .values({ userId: customer.id, productId: 'residential_proxies', quantity: 1 })
      .returning();
    await handlePaymentEvent({ db, provider: 'sandbox', brand: testBrand, event: paidEvent(order?.id ?? '') });
    const usage = (await t.app.inject({ url: '/api/orders/usage', headers: { cookie: customer.cookie } })).json();
    expect(usage[0].endpoint).toBe(`localhost:${gatewayPort}`);
    const [line] = generateResidentialList(usage[0], { count: 1, type: 'dynamic', country: 'US' });
    const [host, port, username, password] = (line ?? '').split(':');
    const { stdout } = await run('curl', [
      '--silent',
      '--show-error',
      '--proxy',
      `http://${host}:${port}`,
      '--proxy-user',
      `${username}:${password}`,
      `http://127.0.0.1:${target.port}/bytes?n=5000`,
    ]);
    expect(stdout.length).toBe(5000);
    await gateway.close();
    // The meter writes what it carried when it flushes.
    const readUsage = async () =>
      (await t.app.inject({ url: '/api/orders/usage', headers: { cookie: customer.cookie } })).json()[0];
    await expect.poll(async () => (await readUsage()).usedInKb).toBeGreaterThan(4);
    expect((await readUsage()).totalInKb).toBe(KB_PER_GB);
  });
});
