import { KB_PER_GB, targetedUsername } from '@storefront/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { residentialAccounts, users } from '../db/schema.ts';
import {
  basicAuth,
  connectThroughProxy,
  httpThroughProxy,
  socksThroughProxy,
  startTargetServer,
  type TargetServer,
} from '../test/proxy-client.ts';
import { createResidentialAccount } from '../test/residential-account.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { type Gateway, gatewayMessages, startGateway } from './gateway.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;
const CACHE_MS = 400;
const protocols = ['HTTP', 'CONNECT', 'SOCKS 5'] as const;
type Protocol = (typeof protocols)[number];

describe('residential gateway: verified credentials', () => {
  let t: TestApp;
  let target: TargetServer;
  let gateway: Gateway;

  beforeAll(async () => {
    t = await createTestApp();
    target = await startTargetServer();
  });
  afterEach(async () => {
    await gateway?.close();
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  const start = async () => {
    gateway = await startGateway({
      db: t.database.db,
      config: {
        ...t.config.gateway,
        host: '127.0.0.1',
        port: 0,
        allowPrivateTargets: true,
        flushMs: 60_000,
        cacheMs: CACHE_MS,
      },
      log: silent,
    });
  };

  /** One request through the gateway: 'carried', or the refusal as the client sees it. */
  async function through(protocol: Protocol, username: string, password: string): Promise<string> {
    if (protocol === 'SOCKS 5') {
      const answer = await socksThroughProxy(
        gateway.port,
        { username, password },
        { host: '127.0.0.1', port: target.port },
        '/',
      );
      if (answer.authStatus !== 0) return 'SOCKS: wrong credentials';
      if (answer.reply !== 0) return `SOCKS: reply ${answer.reply}`;
      return answer.tunnel?.status === 200 ? 'carried' : 'cut';
    }
    const auth = basicAuth(username, password);
    const answer =
      protocol === 'HTTP'
        ? await httpThroughProxy(gateway.port, `http://127.0.0.1:${target.port}/`, auth)
        : await connectThroughProxy(gateway.port, `127.0.0.1:${target.port}`, auth, '/');
    return answer.status === 200 ? 'carried' : `${answer.status} ${answer.body.toString()}`;
  }

  const wrong = (protocol: Protocol) =>
    protocol === 'SOCKS 5' ? 'SOCKS: wrong credentials' : `407 ${gatewayMessages.wrongCredentials}`;
  const blocked = (protocol: Protocol) =>
    protocol === 'SOCKS 5' ? 'SOCKS: reply 2' : `403 ${gatewayMessages.blocked}`;
  const usedUp = (protocol: Protocol) =>
    protocol === 'SOCKS 5' ? 'SOCKS: reply 2' : `402 ${gatewayMessages.usedUp(t.config.gateway.purchaseUrl)}`;

  const db = () => t.database.db;
  /** What happens to the account, the data it starts with, and how the gateway then refuses it. */
  const changes: {
    change: string;
    totalKb: number;
    apply: (userId: string) => Promise<unknown>;
    refusal: (protocol: Protocol) => string;
  }[] = [
    {
      change: 'password changed',
      totalKb: KB_PER_GB,
      apply: (userId) =>
        db().update(residentialAccounts).set({ password: 'rotated' }).where(eq(residentialAccounts.userId, userId)),
      refusal: wrong,
    },
    {
      change: 'banned',
      totalKb: KB_PER_GB,
      apply: (userId) => db().update(users).set({ banned: true }).where(eq(users.id, userId)),
      refusal: blocked,
    },
    {
      change: 'blocked for a day',
      totalKb: KB_PER_GB,
      apply: (userId) =>
        db()
          .update(users)
          .set({ banned: true, banExpires: new Date(Date.now() + 86_400_000) })
          .where(eq(users.id, userId)),
      refusal: blocked,
    },
    {
      change: 'deleted',
      totalKb: KB_PER_GB,
      apply: (userId) => db().delete(residentialAccounts).where(eq(residentialAccounts.userId, userId)),
      refusal: wrong,
    },
    {
      change: 'data used up elsewhere',
      totalKb: KB_PER_GB,
      apply: (userId) =>
        db()
          .update(residentialAccounts)
          .set({ usedKb: sql`${residentialAccounts.totalKb}` })
          .where(eq(residentialAccounts.userId, userId)),
      refusal: usedUp,
    },
    // Metered by this gateway: the download below uses it up, nothing is written.
    { change: 'data used up here', totalKb: 300, apply: async () => {}, refusal: usedUp },
  ];

  for (const protocol of protocols) {
    it(`over ${protocol}, refuses the next request as soon as the gateway knows of a new password, a ban or block, deletion or used-up data`, async () => {
      await start();
      await Promise.all(
        changes.map(async ({ change, totalKb, apply, refusal }) => {
          const customer = await createResidentialAccount(db(), { totalKb });
          // Another line of the same account: credentials of their own, verified after the account was read.
          const line = targetedUsername(customer.username, {
            country: 'US',
            sessionId: 'ab12cd34',
            durationMinutes: 60,
            type: 'dynamic',
          });
          expect(await through(protocol, customer.username, customer.password), change).toBe('carried');
          expect(await through(protocol, line, customer.password), change).toBe('carried');
          expect(await through(protocol, line, customer.password), change).toBe('carried');
          // A tunnel the gateway cuts (or closes before it is open) once it reads the change or meters the data used
          // up: then it knows.
          const held = connectThroughProxy(
            gateway.port,
            `127.0.0.1:${target.port}`,
            customer.auth,
            '/bytes?n=200000000&delay=20',
          ).catch(() => undefined);
          await apply(customer.userId);
          const cut = await held;
          expect(cut?.tunnel?.cut ?? true, change).toBe(true);
          expect(await through(protocol, line, customer.password), change).toBe(refusal(protocol));
          expect(await through(protocol, customer.username, customer.password), change).toBe(refusal(protocol));
        }),
      );
    });
  }
});
