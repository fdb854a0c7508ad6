import net from 'node:net';
import { KB_PER_GB } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { customerPreferences, users } from '../db/schema.ts';
import {
  basicAuth,
  connectThroughProxy,
  exchange,
  httpThroughProxy,
  socksThroughProxy,
  startTargetServer,
  type TargetServer,
} from '../test/proxy-client.ts';
import { createResidentialAccount } from '../test/residential-account.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import type { GatewayConfig } from './config.ts';
import { type Gateway, startGateway } from './gateway.ts';
import { SocksReply } from './socks5.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;

/** A port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The Proxy-Status header's parts: the gateway's name, its error type and its details in words. */
function parsed(header: string | undefined) {
  const match = /^([a-z-]+); error=([a-z_]+); details="((?:[^"\\]|\\.)*)"$/.exec(header ?? '');
  return match ? { name: match[1], error: match[2], details: match[3]?.replace(/\\(.)/g, '$1') } : undefined;
}

describe('residential gateway: every refusal says why (RFC 9209 Proxy-Status, RFC 1928 replies)', () => {
  let t: TestApp;
  let target: TargetServer;
  const open: Gateway[] = [];
  const start = async (overrides: Partial<GatewayConfig> = {}) => {
    const config = { ...t.config.gateway, host: '127.0.0.1', port: 0, allowPrivateTargets: true, cacheMs: 0 };
    const gateway = await startGateway({ db: t.database.db, config: { ...config, ...overrides }, log: silent });
    open.push(gateway);
    return gateway;
  };
  const account = (totalKb: number, usedKb = 0) => createResidentialAccount(t.database.db, { totalKb, usedKb });

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
    target = await startTargetServer();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((gateway) => gateway.close()));
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  it('names the error type and says why in words, over plain HTTP and CONNECT alike', async () => {
    const gateway = await start();
    const strict = await start({ allowPrivateTargets: false });
    const customer = await account(KB_PER_GB);
    const usedUp = await account(100, 100);
    const blocked = await account(KB_PER_GB);
    await t.database.db.update(users).set({ banned: true }).where(eq(users.id, blocked.userId));
    const onlyFromIps = await account(KB_PER_GB);
    await t.database.db.insert(customerPreferences).values({ userId: onlyFromIps.userId, authorizedIpsOnly: true });
    const reachable = `127.0.0.1:${target.port}`;
    const closed = `127.0.0.1:${await closedPort()}`;
    const cases: [string, Gateway, string, string | undefined, number, string, RegExp][] = [
      ['no credentials', gateway, reachable, undefined, 407, 'http_request_denied', /credentials required/],
      [
        'wrong password',
        gateway,
        reachable,
        basicAuth(customer.username, 'wrong'),
        407,
        'http_request_denied',
        /Wrong/,
      ],
      ['data used up', gateway, reachable, usedUp.auth, 402, 'http_request_denied', /data is used up/],
      ['blocked', gateway, reachable, blocked.auth, 403, 'http_request_denied', /blocked/],
      ['not this IP', gateway, reachable, onlyFromIps.auth, 403, 'http_request_denied', /authorised IPs/],
      ['private target', strict, reachable, customer.auth, 403, 'destination_ip_prohibited', /private, reserved/],
      ['refused onwards', gateway, closed, customer.auth, 502, 'connection_refused', /refused the connection/],
      ['unknown name', strict, 'no-such-host.invalid:80', customer.auth, 502, 'dns_error', /could not be resolved/],
    ];
    for (const [why, where, hostPort, auth, status, error, details] of cases) {
      for (const answer of [
        await httpThroughProxy(where.port, `http://${hostPort}/`, auth),
        await connectThroughProxy(where.port, hostPort, auth, '/'),
      ]) {
        expect(answer.status, why).toBe(status);
        const header = parsed(answer.headers['proxy-status']);
        expect(header, why).toMatchObject({ name: 'residential-gateway', error });
        expect(header?.details, why).toMatch(details);
        expect(header?.details, why).toBe(answer.body.toString());
      }
    }
  });

  it('answers a request that is not a proxy request with http_request_error', async () => {
    const gateway = await start();
    // An origin-form request: what a browser sends to a web server, not to a proxy.
    const answer = await exchange(gateway.port, 'GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(parsed(answer.headers['proxy-status'])?.error).toBe('http_request_error');
  });

  it('gives SOCKS 5 clients the closest RFC 1928 reply for each refusal', async () => {
    const gateway = await start();
    const strict = await start({ allowPrivateTargets: false });
    const customer = await account(KB_PER_GB);
    const usedUp = await account(100, 100);
    const credentials = { username: customer.username, password: customer.password };
    const local = { host: '127.0.0.1', port: target.port };
    const wrong = await socksThroughProxy(gateway.port, { ...credentials, password: 'wrong' }, local, '/');
    // RFC 1929: a wrong password fails the sub-negotiation; no request reply follows.
    expect([wrong.authStatus, wrong.reply]).toEqual([1, undefined]);
    const none = await socksThroughProxy(gateway.port, undefined, local, '/');
    expect(none.method).toBe(0xff);
    const cases: [string, Gateway, { username: string; password: string }, typeof local, number][] = [
      ['data used up', gateway, { username: usedUp.username, password: usedUp.password }, local, SocksReply.notAllowed],
      ['private target', strict, credentials, local, SocksReply.notAllowed],
      ['refused onwards', gateway, credentials, { ...local, port: await closedPort() }, SocksReply.connectionRefused],
      ['unknown name', strict, credentials, { host: 'no-such-host.invalid', port: 80 }, SocksReply.hostUnreachable],
    ];
    for (const [why, where, given, destination, reply] of cases) {
      const type = destination.host.includes('.invalid') ? 'domain' : 'ipv4';
      const answer = await socksThroughProxy(where.port, given, { ...destination, type }, '/');
      expect(answer.reply, why).toBe(reply);
    }
  });
});
