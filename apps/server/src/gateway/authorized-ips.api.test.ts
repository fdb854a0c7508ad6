import { existsSync } from 'node:fs';
import net from 'node:net';
import { chromium } from '@playwright/test';
import { BYTES_PER_KB, KB_PER_GB } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authorizedIps, customerPreferences } from '../db/schema.ts';
import {
  basicAuth,
  connectThroughProxy,
  httpThroughProxy,
  proxyV1,
  proxyV2,
  socksThroughProxy,
  startTargetServer,
  type TargetServer,
} from '../test/proxy-client.ts';
import { createResidentialAccount, usedKbOf } from '../test/residential-account.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import type { GatewayConfig } from './config.ts';
import { type Gateway, gatewayMessages, startGateway } from './gateway.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;
const chromiumPath = '/usr/bin/chromium';

/**
 * Authorised IPs at the gateway: no credentials from a customer's addresses, "only from these IPs",
 * changes within the cache time, and the client's address from a PROXY header behind a load balancer. Loopback
 * addresses stand for customers' addresses here (the API refuses them unless GATEWAY_ALLOW_PRIVATE; the gateway takes
 * whatever the list holds), and behind PROXY any address can be named.
 */
describe('residential gateway: authorised IPs', () => {
  let t: TestApp;
  let target: TargetServer;
  const open: Gateway[] = [];

  const start = async (overrides: Partial<GatewayConfig> = {}) => {
    const gateway = await startGateway({
      db: t.database.db,
      config: {
        ...t.config.gateway,
        host: '127.0.0.1',
        port: 0,
        allowPrivateTargets: true,
        flushMs: 60_000,
        cacheMs: 0,
        ...overrides,
      },
      log: silent,
    });
    open.push(gateway);
    return gateway;
  };
  const account = () => createResidentialAccount(t.database.db, { totalKb: KB_PER_GB });
  const authorize = (userId: string, ...ips: string[]) =>
    t.database.db.insert(authorizedIps).values(ips.map((ip) => ({ ip, userId })));
  const onlyFromThem = (userId: string) =>
    t.database.db.insert(customerPreferences).values({ userId, authorizedIpsOnly: true });
  const url = () => `http://127.0.0.1:${target.port}/bytes?n=2000`;

  beforeAll(async () => {
    t = await createTestApp();
    target = await startTargetServer();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((gateway) => gateway.close()));
    await t.database.db.delete(authorizedIps);
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  it('carries HTTP, CONNECT and SOCKS 5 without credentials from an authorised IP, metered to its customer', async () => {
    const gateway = await start();
    const customer = await account();
    await authorize(customer.userId, '127.0.0.3');
    const from = { localAddress: '127.0.0.3' };
    const plain = await httpThroughProxy(gateway.port, url(), undefined, from);
    expect(plain.status).toBe(200);
    const tunnel = await connectThroughProxy(
      gateway.port,
      `127.0.0.1:${target.port}`,
      undefined,
      '/bytes?n=2000',
      from,
    );
    expect(tunnel.tunnel?.status).toBe(200);
    const socks = await socksThroughProxy(
      gateway.port,
      undefined,
      { host: '127.0.0.1', port: target.port },
      '/bytes?n=2000',
      from,
    );
    expect(socks.method).toBe(0x00);
    expect(socks.reply).toBe(0);
    expect(socks.tunnel?.body.length).toBe(2000);
    // Another address without credentials is asked for them, as before.
    expect((await httpThroughProxy(gateway.port, url(), undefined, { localAddress: '127.0.0.4' })).status).toBe(407);
    const anonymous = await socksThroughProxy(gateway.port, undefined, { host: '127.0.0.1', port: target.port }, '/', {
      localAddress: '127.0.0.4',
    });
    expect(anonymous.method).toBe(0xff);
    await gateway.close();
    const bytes = [plain, tunnel, socks].reduce((sum, exchange) => sum + exchange.sent + exchange.received, 0);
    // Each connection's partial KB is carried into the next; the last one is rounded up on close.
    expect(await usedKbOf(t.database.db, customer.userId)).toBe(Math.ceil(bytes / BYTES_PER_KB));
  });

  it('uses the password (and its targeting) when one is given from an authorised IP, and refuses a wrong one', async () => {
    const gateway = await start();
    const customer = await account();
    await authorize(customer.userId, '127.0.0.3');
    const from = { localAddress: '127.0.0.3' };
    expect((await httpThroughProxy(gateway.port, url(), customer.auth, from)).status).toBe(200);
    expect((await httpThroughProxy(gateway.port, url(), basicAuth(customer.username, 'wrong'), from)).status).toBe(407);
  });

  it('refuses the right password from any other address once "only from these IPs" is on', async () => {
    const gateway = await start();
    const customer = await account();
    await authorize(customer.userId, '127.0.0.3');
    await onlyFromThem(customer.userId);
    const elsewhere = await httpThroughProxy(gateway.port, url(), customer.auth, { localAddress: '127.0.0.5' });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.toString()).toBe(gatewayMessages.notThisIp('127.0.0.5'));
    const tunnel = await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, customer.auth, '/', {
      localAddress: '127.0.0.5',
    });
    expect(tunnel.status).toBe(403);
    const socks = await socksThroughProxy(gateway.port, customer, { host: '127.0.0.1', port: target.port }, '/', {
      localAddress: '127.0.0.5',
    });
    expect(socks.reply).toBe(0x02);
    expect((await httpThroughProxy(gateway.port, url(), customer.auth, { localAddress: '127.0.0.3' })).status).toBe(
      200,
    );
  });

  it('takes an address off within the cache time: its open tunnel is cut and the next request asks for credentials', async () => {
    const cacheMs = 300;
    const gateway = await start({ cacheMs });
    const customer = await account();
    await authorize(customer.userId, '127.0.0.3');
    let removedAt = 0;
    const transfer = await connectThroughProxy(
      gateway.port,
      `127.0.0.1:${target.port}`,
      undefined,
      '/bytes?n=200000000&delay=20',
      {
        localAddress: '127.0.0.3',
        onData: (received, socket) => {
          if (received < 200_000 || removedAt !== 0) return;
          removedAt = -1;
          void t.database.db
            .delete(authorizedIps)
            .where(eq(authorizedIps.userId, customer.userId))
            .then(() => {
              removedAt = Date.now();
              setTimeout(() => socket.destroy(), cacheMs + 2_000);
            });
        },
      },
    );
    expect(transfer.tunnel?.cut).toBe(true);
    expect(Date.now() - removedAt).toBeLessThan(cacheMs + 1_000);
    await expect
      .poll(
        async () => (await httpThroughProxy(gateway.port, url(), undefined, { localAddress: '127.0.0.3' })).status,
        {
          timeout: cacheMs + 1_000,
          interval: 50,
        },
      )
      .toBe(407);
  });

  describe('behind a TCP load balancer (GATEWAY_PROXY_PROTOCOL)', () => {
    it("takes the client's address from a PROXY v1 or v2 header, never from the balancer's socket", async () => {
      const gateway = await start({ proxyProtocol: true });
      const customer = await account();
      await authorize(customer.userId, '81.2.69.160', '2a00:1450:4001:80b::200e');
      const v1 = await httpThroughProxy(gateway.port, url(), undefined, { prefix: proxyV1('81.2.69.160') });
      expect(v1.status).toBe(200);
      const v2 = await socksThroughProxy(
        gateway.port,
        undefined,
        { host: '127.0.0.1', port: target.port },
        '/bytes?n=10',
        {
          prefix: proxyV2(
            { ip: '2a00:1450:4001:80b::200e', port: 5000 },
            { tlv: Buffer.from([0x04, 0x00, 0x01, 0x07]) },
          ),
        },
      );
      expect(v2.reply).toBe(0);
      // The balancer's own address (127.0.0.1) authorised changes nothing: the header's address counts.
      await authorize(customer.userId, '127.0.0.1');
      expect((await httpThroughProxy(gateway.port, url(), undefined, { prefix: proxyV1('81.2.69.99') })).status).toBe(
        407,
      );
      // A LOCAL header (the balancer's health check) is the socket's own address.
      const local = await httpThroughProxy(gateway.port, url(), undefined, {
        prefix: proxyV2({ ip: '81.2.69.99', port: 1 }, { local: true }),
      });
      expect(local.status).toBe(200);
      await gateway.close();
      // The headers are the balancer's bytes, not the customer's: only what the clients sent and read is billed.
      const bytes = [v1, v2, local].reduce((sum, exchange) => sum + exchange.sent + exchange.received, 0);
      expect(await usedKbOf(t.database.db, customer.userId)).toBe(Math.ceil(bytes / BYTES_PER_KB));
    });

    it('counts failed authentications per address named in the header', async () => {
      const gateway = await start({
        proxyProtocol: true,
        authFailures: { ...t.config.gateway.authFailures, perIp: 2, windowMs: 60_000 },
      });
      const customer = await account();
      const guess = { prefix: proxyV1('81.2.69.50') };
      for (let i = 0; i < 2; i++) {
        expect((await httpThroughProxy(gateway.port, url(), basicAuth(customer.username, 'x'), guess)).status).toBe(
          407,
        );
      }
      expect((await httpThroughProxy(gateway.port, url(), customer.auth, guess)).status).toBe(429);
      const other = await httpThroughProxy(gateway.port, url(), customer.auth, { prefix: proxyV1('81.2.69.51') });
      expect(other.status).toBe(200);
    });

    it('closes a connection that does not start with a PROXY header', async () => {
      const gateway = await start({ proxyProtocol: true });
      const customer = await account();
      await authorize(customer.userId, '127.0.0.1');
      const answer = await new Promise<{ data: string; closed: boolean }>((resolve) => {
        const socket = net.connect(gateway.port, '127.0.0.1', () =>
          socket.write(`PROXY TCP4 81.2.69.160\r\nGET ${url()} HTTP/1.1\r\n\r\n`),
        );
        let data = '';
        socket.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve({ data, closed: true }));
      });
      expect(answer).toEqual({ data: '', closed: true });
      await expect(httpThroughProxy(gateway.port, url(), undefined)).rejects.toThrow(/without an answer/);
    });
  });

  it.runIf(existsSync(chromiumPath))(
    "works with Chromium's --proxy-server=socks5:// and http:// from an authorised IP (Chromium sends no proxy credentials over SOCKS)",
    async () => {
      const gateway = await start();
      const customer = await account();
      await authorize(customer.userId, '127.0.0.1');
      for (const scheme of ['socks5', 'http']) {
        const browser = await chromium.launch({
          executablePath: chromiumPath,
          args: [`--proxy-server=${scheme}://127.0.0.1:${gateway.port}`, '--proxy-bypass-list=<-loopback>'],
        });
        try {
          const page = await browser.newPage();
          const response = await page.goto(`http://localhost:${target.port}/hello`);
          expect(response?.status(), scheme).toBe(200);
          expect((await response?.body())?.toString(), scheme).toBe('ok');
        } finally {
          await browser.close();
        }
      }
      await gateway.flush();
      expect(await usedKbOf(t.database.db, customer.userId)).toBeGreaterThan(0);
    },
    60_000,
  );
});
