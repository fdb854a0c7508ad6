import http from 'node:http';
import net from 'node:net';
import { KB_PER_GB, parseTargetedUsername } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { residentialAccounts } from '../../db/schema.ts';
import { type Gateway, gatewayMessages, startGateway } from '../../gateway/gateway.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { connectionTestMessages, testResidentialConnection } from './test-connection.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('POST /api/orders/usage/test', () => {
  let t: TestApp;
  let gateway: Gateway;
  let echo: http.Server;
  /** The usernames the echo saw come through the gateway, read from the line the test made (never sent on). */
  const seen: { remote: string | undefined; proxyAuthorization: string | undefined }[] = [];

  beforeAll(async () => {
    // The local echo: the address a request came from, and a country, as an echo service answers.
    echo = http.createServer((request, response) => {
      seen.push({ remote: request.socket.remoteAddress, proxyAuthorization: request.headers['proxy-authorization'] });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ ip: request.socket.remoteAddress?.replace(/^::ffff:/, ''), country: 'nl' }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const gatewayPort = await freePort();
    t = await createTestApp({
      GATEWAY_PORT: String(gatewayPort),
      GATEWAY_TEST_URL: `http://127.0.0.1:${(echo.address() as net.AddressInfo).port}/ip`,
    });
    gateway = await startGateway({
      db: t.database.db,
      config: { ...t.config.gateway, host: '127.0.0.1', port: gatewayPort, allowPrivateTargets: true, cacheMs: 0 },
      log: silent,
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => echo?.close(resolve));
    await t?.close();
  });

  /** A signed-in customer with residential data of their own. */
  async function customer(email: string, { totalKb = KB_PER_GB, usedKb = 0 } = {}) {
    const signedIn = await signUpCustomer(t, email);
    const username = `res${signedIn.id.replaceAll('-', '').slice(0, 10)}`;
    const password = 'line-password';
    await t.database.db
      .insert(residentialAccounts)
      .values({ userId: signedIn.id, username, password, totalKb, usedKb });
    return { ...signedIn, username, password };
  }
  const test = (cookie: string | undefined, payload: unknown) =>
    callApi(t, 'POST', '/api/orders/usage/test', { cookie, payload });

  it("sends one request through the gateway with the customer's line and answers the exit, its country and the time", async () => {
    const alice = await customer('test-ok@example.com');
    const carriedBefore = gateway.carried();
    const response = await test(alice.cookie, { country: 'de', type: 'static' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({ ok: true, exitAddress: '127.0.0.1', country: 'NL' });
    expect(answer.ms).toBeGreaterThanOrEqual(0);
    expect(answer.ms).toBeLessThan(15_000);
    // It went through the gateway (metered to the customer), which passed on no credentials.
    expect(gateway.carried().download).toBeGreaterThan(carriedBefore.download);
    expect(seen.at(-1)?.proxyAuthorization).toBeUndefined();
  });

  it("answers the gateway's refusal in its own words: data used up, over plain HTTP and through a CONNECT tunnel", async () => {
    const bob = await customer('test-used-up@example.com', { totalKb: 100, usedKb: 100 });
    const response = await test(bob.cookie, { country: 'US', type: 'dynamic' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ ok: false, reason: gatewayMessages.usedUp(t.config.gateway.purchaseUrl) });
    // An https:// test address goes through CONNECT: refused before any TLS, with the same words.
    const tunnelled = await testResidentialConnection({
      db: t.database.db,
      userId: bob.id,
      line: { country: 'US', type: 'dynamic' },
      gatewayEndpoint: t.config.gatewayEndpoint,
      testUrl: 'https://127.0.0.1:9/ip',
    });
    expect(tunnelled).toMatchObject({ ok: false, reason: gatewayMessages.usedUp(t.config.gateway.purchaseUrl) });
  });

  it("makes the line with the generator's targeting and a new session id, from the customer's own credentials", async () => {
    const carol = await customer('test-line@example.com');
    const usernames: string[] = [];
    const spy = http.createServer((request, response) => {
      const authorization = String(request.headers['proxy-authorization'] ?? '');
      const decoded = Buffer.from(authorization.replace(/^Basic /, ''), 'base64').toString();
      usernames.push(decoded);
      response.writeHead(407, { 'proxy-status': 'spy; error=http_request_denied; details="Seen \\"here\\"."' }).end();
    });
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
    const answer = await testResidentialConnection({
      db: t.database.db,
      userId: carol.id,
      line: { country: 'GB', type: 'static' },
      gatewayEndpoint: `127.0.0.1:${(spy.address() as net.AddressInfo).port}`,
      testUrl: 'http://echo.example.com/ip',
    });
    await new Promise((resolve) => spy.close(resolve));
    expect(answer).toMatchObject({ ok: false, reason: 'Seen "here".' });
    const [username, password] = usernames[0]?.split(':') ?? [];
    expect(password).toBe(carol.password);
    expect(parseTargetedUsername(username ?? '')).toMatchObject({
      username: carol.username,
      country: 'GB',
      type: 'static',
      durationMinutes: 60,
    });
  });

  it("refuses visitors, never tests another customer's line, and says what is wrong with a bad body", async () => {
    const alice = await customer('test-owner@example.com');
    expect((await test(undefined, { country: 'US', type: 'dynamic' })).statusCode).toBe(401);
    const mallory = await signUpCustomer(t, 'test-mallory@example.com');
    // The line is always the caller's own: naming someone else's username is refused, and without data of one's own
    // there is nothing to test.
    const named = await test(mallory.cookie, { country: 'US', type: 'dynamic', username: alice.username });
    expect(named.statusCode).toBe(400);
    expect(named.json().message).toMatch(/Send only country and type/);
    const own = await test(mallory.cookie, { country: 'US', type: 'dynamic' });
    expect([own.statusCode, own.json().message]).toEqual([404, connectionTestMessages.noResidentialData]);
    const country = await test(alice.cookie, { country: 'XX', type: 'dynamic' });
    expect([country.statusCode, country.json().message]).toEqual([
      400,
      'country must be a two-letter country code, such as US.',
    ]);
    const type = await test(alice.cookie, { country: 'US', type: 'sticky' });
    expect([type.statusCode, type.json().message]).toEqual([400, 'type must be dynamic or static.']);
  });

  it('counts the tests per customer: the sixth within a minute is refused', async () => {
    const dave = await customer('test-limit@example.com');
    for (let test_ = 0; test_ < 5; test_++) {
      expect((await test(dave.cookie, { country: 'US', type: 'dynamic' })).statusCode).toBe(200);
    }
    const refused = await test(dave.cookie, { country: 'US', type: 'dynamic' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    // Another customer is not held back by it.
    const erin = await customer('test-limit-other@example.com');
    expect((await test(erin.cookie, { country: 'US', type: 'dynamic' })).statusCode).toBe(200);
  });

  it('says the test is not set up, and gives up on a gateway that does not answer', async () => {
    const frank = await customer('test-unset@example.com');
    const line = { country: 'US', type: 'dynamic' } as const;
    await expect(
      testResidentialConnection({ db: t.database.db, userId: frank.id, line, gatewayEndpoint: '', testUrl: undefined }),
    ).rejects.toThrow(connectionTestMessages.notConfigured);
    const silentGateway = net.createServer(() => {});
    await new Promise<void>((resolve) => silentGateway.listen(0, '127.0.0.1', resolve));
    const answer = await testResidentialConnection({
      db: t.database.db,
      userId: frank.id,
      line,
      gatewayEndpoint: `127.0.0.1:${(silentGateway.address() as net.AddressInfo).port}`,
      testUrl: 'http://echo.example.com/ip',
      timeoutMs: 200,
    });
    silentGateway.close();
    expect(answer).toMatchObject({ ok: false, reason: connectionTestMessages.timedOut });
    const refusedPort = await freePort();
    expect(
      await testResidentialConnection({
        db: t.database.db,
        userId: frank.id,
        line,
        gatewayEndpoint: `127.0.0.1:${refusedPort}`,
        testUrl: 'http://echo.example.com/ip',
      }),
    ).toMatchObject({
      ok: false,
      reason: `The gateway at 127.0.0.1:${refusedPort} could not be reached. Try again in a minute.`,
    });
  });
});
