import { randomUUID } from 'node:crypto';
import { BYTES_PER_KB, KB_PER_GB, targetedUsername } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authorizedIps, proxyUsers } from '../db/schema.ts';
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
import { type Gateway, gatewayMessages, startGateway } from './gateway.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;
const CACHE_MS = 300;

type ProxyUserRow = typeof proxyUsers.$inferInsert;

/** The residential gateway carrying a customer's proxy users: their own credentials, pause, allowance and limits. */
describe('residential gateway: proxy users', () => {
  let t: TestApp;
  let target: TargetServer;
  let gateway: Gateway;

  beforeAll(async () => {
    t = await createTestApp();
    target = await startTargetServer();
    gateway = await startGateway({
      db: t.database.db,
      config: {
        ...t.config.gateway,
        host: '127.0.0.1',
        port: 0,
        allowPrivateTargets: true,
        flushMs: 60_000,
        cacheMs: CACHE_MS,
        sliceKb: 256,
      },
      log: silent,
    });
  });
  afterEach(async () => {
    await gateway.flush();
  });
  afterAll(async () => {
    await gateway.close();
    await target.close();
    await t.close();
  });

  const db = () => t.database.db;
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** An account with one proxy user (`name`, password `secret123`), and what a line of it needs. */
  async function team(row: Partial<ProxyUserRow> = {}, totalKb = KB_PER_GB) {
    const account = await createResidentialAccount(db(), { totalKb });
    const id = randomUUID();
    const name = row.name ?? 'scraper1';
    await db()
      .insert(proxyUsers)
      .values({ id, userId: account.userId, name, password: 'secret123', ...row });
    const username = `${account.username}_${name}`;
    const line = (country = 'US') =>
      targetedUsername(username, { country, sessionId: 'ab12cd34', durationMinutes: 60, type: 'dynamic' });
    return { account, id, username, auth: basicAuth(line(), 'secret123'), line };
  }
  const proxyUserRow = async (id: string) => (await db().select().from(proxyUsers).where(eq(proxyUsers.id, id)))[0];
  const download = (auth: string, bytes: number) =>
    connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, auth, `/bytes?n=${bytes}`);

  it('carries a proxy user on its own password over HTTP, CONNECT and SOCKS 5, billed to it and to the account', async () => {
    const { account, id, username, auth, line } = await team();
    const http = await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/bytes?n=5000`, auth);
    expect(http.status).toBe(200);
    const tunnel = await download(auth, 20_000);
    expect(tunnel.tunnel?.status).toBe(200);
    const socks = await socksThroughProxy(
      gateway.port,
      { username: line('DE'), password: 'secret123' },
      { host: '127.0.0.1', port: target.port },
      '/bytes?n=7000',
    );
    expect(socks.reply).toBe(0);
    // The account's password is not the proxy user's, nor the other way round.
    expect((await download(basicAuth(line(), account.password), 10)).status).toBe(407);
    expect((await download(basicAuth(account.username, 'secret123'), 10)).status).toBe(407);
    expect((await download(basicAuth(`${username}x`, 'secret123'), 10)).status).toBe(407);

    await gateway.flush();
    const bytes = http.sent + http.received + tunnel.sent + tunnel.received + socks.sent + socks.received;
    const row = await proxyUserRow(id);
    expect(row?.usedKb).toBeGreaterThanOrEqual(Math.floor(bytes / BYTES_PER_KB));
    expect(row?.usedKb).toBeLessThanOrEqual(Math.ceil(bytes / BYTES_PER_KB));
    expect(await usedKbOf(db(), account.userId)).toBe(row?.usedKb);
  });

  it('refuses a paused proxy user in words, cuts its open tunnel within the cache time, and carries it again resumed', async () => {
    const { id, auth } = await team();
    const open = connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, auth, '/bytes?n=50000000&delay=20', {
      halfOpen: true,
    });
    await wait(100);
    await db().update(proxyUsers).set({ paused: true }).where(eq(proxyUsers.id, id));
    const cut = await open;
    expect(cut.tunnel?.cut ?? true).toBe(true);
    cut.socket?.destroy();
    await wait(CACHE_MS);
    const refused = await download(auth, 10);
    expect(refused.status).toBe(403);
    expect(refused.body.toString()).toBe(gatewayMessages.paused);
    expect(refused.headers['proxy-status']).toContain('error=http_request_denied');
    await db().update(proxyUsers).set({ paused: false }).where(eq(proxyUsers.id, id));
    await wait(CACHE_MS);
    expect((await download(auth, 10)).tunnel?.status).toBe(200);
  });

  it('holds a proxy user to its total allowance, in words at the cap, while the main user carries on', async () => {
    const { account, id, auth } = await team({ allowance: 'total', allowanceKb: 100 });
    const cut = await download(auth, 300_000);
    expect(cut.tunnel?.cut).toBe(true);
    const refused = await download(auth, 10);
    expect(refused.status).toBe(402);
    expect(refused.body.toString()).toBe(gatewayMessages.allowanceUsedUp);
    expect((await download(account.auth, 50_000)).tunnel?.cut).toBe(false);
    await gateway.flush();
    // At most a chunk past the cap.
    const used = (await proxyUserRow(id))?.usedKb ?? 0;
    expect(used).toBeGreaterThanOrEqual(100);
    expect(used).toBeLessThanOrEqual(100 + 64);
  });

  it("counts a monthly allowance from its period's start: last period's use is not this one's", async () => {
    const { id, auth } = await team({
      allowance: 'monthly',
      allowanceKb: 100,
      resetDay: 1,
      usedKb: 5000,
      periodUsedKb: 100,
      periodStart: '2020-01-01',
    });
    expect((await download(auth, 20_000)).tunnel?.cut).toBe(false);
    await gateway.flush();
    const row = await proxyUserRow(id);
    const today = new Date();
    const periodStart = `${today.getUTCFullYear()}-${String(today.getUTCMonth() + 1).padStart(2, '0')}-01`;
    expect(row?.periodStart).toBe(periodStart);
    expect(row?.periodUsedKb).toBeLessThan(30);
    expect(row?.usedKb).toBe(5000 + (row?.periodUsedKb ?? 0));
    // This period's allowance used up here: cut at the cap, then refused in words.
    expect((await download(auth, 200_000)).tunnel?.cut).toBe(true);
    const refused = await download(auth, 10);
    expect(refused.status).toBe(402);
    expect(refused.body.toString()).toBe(gatewayMessages.allowanceUsedUp);
    await gateway.flush();
    expect((await proxyUserRow(id))?.periodUsedKb).toBeLessThanOrEqual(100 + 64);
  });

  it('refuses targeting outside its countries, and a line without a country, in words', async () => {
    const { line } = await team({ countries: ['US', 'DE'] });
    expect((await download(basicAuth(line('DE'), 'secret123'), 10)).tunnel?.status).toBe(200);
    const refused = await download(basicAuth(line('FR'), 'secret123'), 10);
    expect(refused.status).toBe(403);
    expect(refused.body.toString()).toBe(gatewayMessages.countryNotAllowed('FR'));
    const { username } = await team({ name: 'bare', countries: ['US'] });
    const untargeted = await download(basicAuth(username, 'secret123'), 10);
    expect(untargeted.status).toBe(403);
    expect(untargeted.body.toString()).toBe(gatewayMessages.countryNotAllowed(undefined));
  });

  it('refuses a connection past its limit of simultaneous connections, and takes one again once one closes', async () => {
    const { auth } = await team({ maxConnections: 2 });
    const held = await Promise.all(
      [0, 1]
        .map(() =>
          connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, auth, '/bytes?n=50000000&delay=50', {
            halfOpen: true,
            onData: (_received, socket) => socket.pause(),
          }),
        )
        .map((exchange) => Promise.race([exchange, wait(300)])),
    );
    expect(held).toHaveLength(2);
    const third = await download(auth, 10);
    expect(third.status).toBe(429);
    expect(third.body.toString()).toBe(gatewayMessages.tooManyConnections(2));
  });

  it('holds its limit of connections when many arrive at once, before it has a slice', async () => {
    const { auth } = await team({ name: 'burst', maxConnections: 2 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        Promise.race([
          connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, auth, '/bytes?n=50000000&delay=50', {
            halfOpen: true,
            onData: (_received, socket) => socket.pause(),
          }),
          wait(500).then(() => 'held' as const),
        ]),
      ),
    );
    expect(answers.filter((answer) => answer === 'held')).toHaveLength(2);
    expect(answers.filter((answer) => answer !== 'held' && answer.status === 429)).toHaveLength(18);
  });

  it("lets a proxy user's authorised IP in without credentials, billed to it; a deleted proxy user is refused", async () => {
    const { account, id, auth } = await team({ name: 'byip' });
    await db().insert(authorizedIps).values({ ip: '127.0.0.9', userId: account.userId, proxyUserId: id });
    const answer = await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, undefined, '/bytes?n=10000', {
      localAddress: '127.0.0.9',
    });
    expect(answer.tunnel?.status).toBe(200);
    await gateway.flush();
    expect((await proxyUserRow(id))?.usedKb).toBeGreaterThan(0);
    await db().update(proxyUsers).set({ deletedAt: new Date() }).where(eq(proxyUsers.id, id));
    await wait(CACHE_MS + 50);
    expect((await download(auth, 10)).status).toBe(407);
    const byIp = await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, undefined, '/', {
      localAddress: '127.0.0.9',
    });
    expect(byIp.status).toBe(407);
  });
});
