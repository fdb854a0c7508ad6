import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { promisify } from 'node:util';
import {
  BYTES_PER_KB,
  formatEndpoint,
  generateResidentialList,
  KB_PER_GB,
  parseResidentialLine,
} from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { SocksProxyAgent } from 'socks-proxy-agent';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import {
  basicAuth,
  closesWithin,
  connectThroughProxy,
  httpThroughProxy,
  socksThroughProxy,
  startTargetServer,
  type TargetServer,
} from '../test/proxy-client.ts';
import { createResidentialAccount, usedKbOf } from '../test/residential-account.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import type { GatewayConfig } from './config.ts';
import { type Gateway, startGateway } from './gateway.ts';

const run = promisify(execFile);
const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;
/** Debian's Python with PySocks (python3-socks) and requests (python3-requests); the test says so when they are missing. */
const debianPython = '/usr/bin/python3';

describe('residential gateway: SOCKS 5 on the same port', () => {
  let t: TestApp;
  let target: TargetServer;
  let target6: TargetServer | undefined;
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
  const account = (totalKb: number, usedKb = 0) => createResidentialAccount(t.database.db, { totalKb, usedKb });
  const usedKb = (userId: string) => usedKbOf(t.database.db, userId);

  beforeAll(async () => {
    t = await createTestApp();
    target = await startTargetServer();
    target6 = await startTargetServer('::1').catch(() => undefined);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((gateway) => gateway.close()));
  });
  afterAll(async () => {
    await target.close();
    await target6?.close();
    await t.close();
  });

  it('carries a SOCKS 5 CONNECT by domain name, IPv4 and IPv6, with the password of a generated line', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const [line] = generateResidentialList(
      { endpoint: `127.0.0.1:${gateway.port}`, username: customer.username, password: customer.password },
      { count: 1, type: 'static', country: 'DE' },
    );
    const username = line?.split(':')[2] ?? '';
    const targets = [
      { host: 'localhost', port: target.port, type: 'domain' as const },
      { host: '127.0.0.1', port: target.port },
      ...(target6 ? [{ host: '::1', port: target6.port }] : []),
    ];
    for (const where of targets) {
      const exchange = await socksThroughProxy(
        gateway.port,
        { username, password: customer.password },
        where,
        '/bytes?n=5000',
      );
      expect(exchange.method, where.host).toBe(0x02);
      expect(exchange.authStatus, where.host).toBe(0);
      expect(exchange.reply, where.host).toBe(0);
      expect(exchange.tunnel?.status, where.host).toBe(200);
      expect(exchange.tunnel?.body.length, where.host).toBe(5000);
    }
    expect(target6, 'an IPv6 loopback to test SOCKS IPv6 targets').toBeDefined();
  });

  it('meters a SOCKS transfer as exactly as the same transfer over HTTP CONNECT, to the KB', async () => {
    const gateway = await start();
    const viaSocks = await account(KB_PER_GB);
    const viaConnect = await account(KB_PER_GB);
    const socks = await socksThroughProxy(
      gateway.port,
      { username: viaSocks.username, password: viaSocks.password },
      { host: '127.0.0.1', port: target.port },
      '/bytes?n=3000000',
    );
    const tunnel = await connectThroughProxy(
      gateway.port,
      `127.0.0.1:${target.port}`,
      viaConnect.auth,
      '/bytes?n=3000000',
    );
    expect(socks.tunnel?.body.length).toBe(3_000_000);
    expect(tunnel.tunnel?.body.length).toBe(3_000_000);
    await gateway.close();
    // Every byte on the customer's connection, the SOCKS handshake as the CONNECT head: rounded up once, on close.
    expect(await usedKb(viaSocks.userId)).toBe(Math.ceil((socks.sent + socks.received) / BYTES_PER_KB));
    expect(await usedKb(viaConnect.userId)).toBe(Math.ceil((tunnel.sent + tunnel.received) / BYTES_PER_KB));
    // The same download costs the same to the KB whichever way it came (the heads differ by a few dozen bytes).
    expect(Math.abs((await usedKb(viaSocks.userId)) - (await usedKb(viaConnect.userId)))).toBeLessThanOrEqual(1);
  });

  it('answers a wrong password with RFC 1929 failure, and past the failure limit refuses the request (0x02)', async () => {
    const gateway = await start({ authFailures: { ...t.config.gateway.authFailures, perIp: 3, windowMs: 60_000 } });
    const customer = await account(KB_PER_GB);
    const where = { host: '127.0.0.1', port: target.port };
    for (let i = 0; i < 3; i++) {
      const wrong = await socksThroughProxy(
        gateway.port,
        { username: customer.username, password: 'nope' },
        where,
        '/',
      );
      expect(wrong.authStatus).toBe(0x01);
      expect(wrong.reply).toBeUndefined();
    }
    // Refused now with the right password too, and told so as "connection not allowed", not as a wrong password.
    const refused = await socksThroughProxy(gateway.port, customer, where, '/');
    expect(refused.authStatus).toBe(0);
    expect(refused.reply).toBe(0x02);
    expect(refused.tunnel).toBeUndefined();
    // Another address is not affected.
    const other = await socksThroughProxy(gateway.port, customer, where, '/', { localAddress: '127.0.0.2' });
    expect(other.reply).toBe(0);
  });

  it('answers BIND and UDP ASSOCIATE "command not supported", and an unknown address type 0x08', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    for (const command of [0x02, 0x03]) {
      const answer = await socksThroughProxy(gateway.port, customer, { host: '127.0.0.1', port: target.port }, '/', {
        command,
      });
      expect(answer.reply, `command ${command}`).toBe(0x07);
    }
    // Without credentials from an address no customer authorised: no acceptable method.
    const anonymous = await socksThroughProxy(gateway.port, undefined, { host: '127.0.0.1', port: target.port }, '/');
    expect(anonymous.method).toBe(0xff);
    await gateway.flush();
    expect(await usedKb(customer.userId)).toBe(0);
  });

  it('refuses what HTTP refuses: private targets, port 0, no data left, a blocked account (reply 0x02)', async () => {
    const gateway = await start({ allowPrivateTargets: false });
    const customer = await account(KB_PER_GB);
    for (const where of [
      { host: '8.8.8.8', port: 0 },
      { host: '127.0.0.1', port: target.port },
      { host: 'localhost', port: target.port, type: 'domain' as const },
      { host: '::1', port: 80 },
      { host: '10.1.2.3', port: 80 },
      { host: '169.254.169.254', port: 80 },
    ]) {
      const answer = await socksThroughProxy(gateway.port, customer, where, '/');
      expect(answer.reply, where.host).toBe(0x02);
    }
    const open = await start();
    const usedUp = await account(100, 100);
    expect((await socksThroughProxy(open.port, usedUp, { host: '127.0.0.1', port: target.port }, '/')).reply).toBe(
      0x02,
    );
    const blocked = await account(KB_PER_GB);
    await t.database.db.update(users).set({ banned: true }).where(eq(users.id, blocked.userId));
    expect((await socksThroughProxy(open.port, blocked, { host: '127.0.0.1', port: target.port }, '/')).reply).toBe(
      0x02,
    );
    // A name that does not resolve: host unreachable.
    const nowhere = await socksThroughProxy(
      open.port,
      customer,
      { host: 'no-such-host.invalid', port: 80, type: 'domain' },
      '/',
    );
    expect(nowhere.reply).toBe(0x04);
  });

  it('cuts a SOCKS download at the limit within 1 MB, and a banned account within the cache time', async () => {
    const cacheMs = 300;
    const gateway = await start({ cacheMs });
    const small = await account(512);
    const limit = 512 * BYTES_PER_KB;
    const cut = await socksThroughProxy(
      gateway.port,
      small,
      { host: '127.0.0.1', port: target.port },
      '/bytes?n=50000000',
    );
    expect(cut.tunnel?.cut).toBe(true);
    expect(cut.sent + cut.received).toBeLessThan(limit + 1024 * 1024);
    const banned = await account(KB_PER_GB);
    let bannedAt = 0;
    const long = await socksThroughProxy(
      gateway.port,
      banned,
      { host: '127.0.0.1', port: target.port },
      '/bytes?n=200000000&delay=20',
      {
        onData: (received, socket) => {
          if (received < 200_000 || bannedAt !== 0) return;
          bannedAt = -1;
          void t.database.db
            .update(users)
            .set({ banned: true })
            .where(eq(users.id, banned.userId))
            .then(() => {
              bannedAt = Date.now();
              setTimeout(() => socket.destroy(), cacheMs + 2_000);
            });
        },
      },
    );
    expect(long.tunnel?.cut).toBe(true);
    expect(Date.now() - bannedAt).toBeLessThan(cacheMs + 1_000);
  });

  it('works with curl --socks5-hostname and --socks5 and a socks5:// line of the list generator', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const [line] = generateResidentialList(
      { endpoint: `127.0.0.1:${gateway.port}`, username: customer.username, password: customer.password },
      { count: 1, type: 'dynamic', country: 'US' },
    );
    const proxy = formatEndpoint(line ?? '', 'socks5://user:pass@ip:port');
    expect(proxy).toMatch(/^socks5:\/\/res[0-9a-f]+-country-us-session-[a-z0-9]{8}-duration-60:.+@127\.0\.0\.1:\d+$/);
    expect(parseResidentialLine(line ?? '')?.country).toBe('US');
    for (const flag of ['--socks5-hostname', '--socks5']) {
      const { stdout } = await run('curl', [
        '--silent',
        '--show-error',
        flag,
        `127.0.0.1:${gateway.port}`,
        '--proxy-user',
        `${line?.split(':')[2]}:${customer.password}`,
        `http://localhost:${target.port}/bytes?n=7000`,
      ]);
      expect(stdout.length, flag).toBe(7000);
    }
    // The socks5h:// URL as a tool takes it whole (curl -x).
    const { stdout } = await run('curl', [
      '--silent',
      '--show-error',
      '-x',
      proxy.replace('socks5://', 'socks5h://'),
      `http://localhost:${target.port}/bytes?n=100`,
    ]);
    expect(stdout.length).toBe(100);
    // curl reports a refusal in SOCKS terms.
    const refused = await run('curl', [
      '--silent',
      '--show-error',
      '--socks5-hostname',
      `127.0.0.1:${gateway.port}`,
      '--proxy-user',
      `${customer.username}:wrong`,
      `http://localhost:${target.port}/`,
    ]).catch((error: { stderr: string }) => error);
    expect('stderr' in refused ? refused.stderr : '').toMatch(/SOCKS5|authentication/i);
  });

  it('works with Node and socks-proxy-agent', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const agent = new SocksProxyAgent(
      `socks5h://${encodeURIComponent(customer.username)}:${encodeURIComponent(customer.password)}@127.0.0.1:${gateway.port}`,
    );
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get(`http://localhost:${target.port}/bytes?n=4096`, { agent }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(body.length).toBe(4096);
  });

  it.runIf(existsSync(debianPython))('works with Python requests and PySocks (socks5h://)', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const script = [
      'import sys, requests',
      'proxy = sys.argv[1]',
      'r = requests.get(sys.argv[2], proxies={"http": proxy, "https": proxy}, timeout=10)',
      'print(r.status_code, len(r.content))',
    ].join('\n');
    const { stdout } = await run(debianPython, [
      '-c',
      script,
      `socks5h://${customer.username}:${customer.password}@127.0.0.1:${gateway.port}`,
      `http://localhost:${target.port}/bytes?n=3000`,
    ]).catch((error: { stderr?: string }) => {
      throw new Error(
        `Python with PySocks failed (apt-get install python3-socks python3-requests): ${error.stderr ?? error}`,
      );
    });
    expect(stdout.trim()).toBe('200 3000');
  });

  it('closes a refused greeting at once, and takes none of the megabytes sent after it', async () => {
    const gateway = await start();
    // Half-open allowed: the client writes on after the gateway has ended its side, as an attacker's would.
    const client = net.connect({ port: gateway.port, host: '127.0.0.1', allowHalfOpen: true });
    client.on('error', () => {});
    const answer: Buffer[] = [];
    client.on('data', (chunk: Buffer) => answer.push(chunk));
    await once(client, 'connect');
    // No authorised IP for this address: "no acceptable method" (05 FF). Then as much as the gateway will take.
    client.write(Buffer.from([0x05, 0x01, 0x00]));
    const total = 32 * 1024 * 1024;
    const megabyte = Buffer.alloc(1024 * 1024, 'x');
    let written = 0;
    const closed = closesWithin(client, 3000);
    void (async () => {
      while (written < total && !client.destroyed) {
        written += megabyte.length;
        if (!client.write(megabyte)) await Promise.race([once(client, 'drain').catch(() => {}), closed]);
      }
    })();
    expect(await closed, 'closed by the gateway').toBe(true);
    expect(Buffer.concat(answer)).toEqual(Buffer.from([0x05, 0xff]));
    expect(written).toBeLessThan(total);
    await expect.poll(() => gateway.connections()).toBe(0);
  });

  it('passes on a first payload sent with the handshake, larger than the handshake buffer', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const user = Buffer.from(customer.username);
    const pass = Buffer.from(customer.password);
    const port = Buffer.alloc(2);
    port.writeUInt16BE(target.port);
    const body = Buffer.alloc(300_000, 'y');
    const uploadedBefore = target.uploaded();
    const client = net.connect(gateway.port, '127.0.0.1');
    client.on('error', () => {});
    const received: Buffer[] = [];
    client.on('data', (chunk: Buffer) => received.push(chunk));
    // All at once, without waiting for an answer: greeting, password, CONNECT, then an upload through the tunnel.
    client.write(
      Buffer.concat([
        Buffer.from([0x05, 0x01, 0x02, 0x01, user.length]),
        user,
        Buffer.from([pass.length]),
        pass,
        Buffer.from([0x05, 0x01, 0x00, 0x01, 127, 0, 0, 1]),
        port,
        Buffer.from(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
        body,
      ]),
    );
    await once(client, 'close');
    const answer = Buffer.concat(received);
    expect([...answer.subarray(0, 5)]).toEqual([0x05, 0x02, 0x01, 0x00, 0x05]);
    expect(answer[5]).toBe(0x00);
    // After the 10 bytes of the reply (an IPv4 address), the target's answer to the upload: its length.
    expect(answer.subarray(14).toString('latin1')).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n300000$/);
    expect(target.uploaded() - uploadedBefore).toBe(body.length);
  });

  it('closes every refused SOCKS connection, not only its own side, when the client keeps its side open', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const blocked = await account(KB_PER_GB);
    await t.database.db.update(users).set({ banned: true }).where(eq(users.id, blocked.userId));
    const where = { host: '127.0.0.1', port: target.port };
    const refusals: { what: string; exchange: () => ReturnType<typeof socksThroughProxy>; expect: Partial<object> }[] =
      [
        {
          what: 'no acceptable method',
          exchange: () => socksThroughProxy(gateway.port, undefined, where, '/', { halfOpen: true }),
          expect: { method: 0xff },
        },
        {
          what: 'wrong password',
          exchange: () =>
            socksThroughProxy(gateway.port, { ...customer, password: 'nope' }, where, '/', { halfOpen: true }),
          expect: { authStatus: 0x01 },
        },
        {
          what: 'BIND',
          exchange: () => socksThroughProxy(gateway.port, customer, where, '/', { command: 0x02, halfOpen: true }),
          expect: { reply: 0x07 },
        },
        {
          what: 'port 0',
          exchange: () => socksThroughProxy(gateway.port, customer, { ...where, port: 0 }, '/', { halfOpen: true }),
          expect: { reply: 0x02 },
        },
        {
          what: 'blocked account',
          exchange: () => socksThroughProxy(gateway.port, blocked, where, '/', { halfOpen: true }),
          expect: { reply: 0x02 },
        },
        {
          what: 'a name that does not resolve',
          exchange: () =>
            socksThroughProxy(gateway.port, customer, { host: 'no-such-host.invalid', port: 80, type: 'domain' }, '/', {
              halfOpen: true,
            }),
          expect: { reply: 0x04 },
        },
      ];
    for (const refusal of refusals) {
      const answer = await refusal.exchange();
      try {
        expect(answer, refusal.what).toMatchObject(refusal.expect);
        await expect.poll(() => gateway.connections(), { message: refusal.what, timeout: 1000 }).toBe(0);
      } finally {
        answer.socket?.destroy();
      }
    }
  });

  it('still answers HTTP on the same port (the first byte tells)', async () => {
    const gateway = await start();
    const customer = await account(KB_PER_GB);
    const plain = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/bytes?n=10`, customer.auth);
    expect(plain.status).toBe(200);
    const wrong = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/`, basicAuth('x', 'y'));
    expect(wrong.status).toBe(407);
  });
});
