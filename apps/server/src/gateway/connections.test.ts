import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AccountCache, GatewayAccount } from './accounts.ts';
import { type Connection, newConnection, OpenConnections, revoked } from './connections.ts';
import { Meter } from './meter.ts';
import type { SqlClient } from './sql.ts';

/** A socket as the connection registry sees it: counters, destroy and close. */
function fakeSocket(remoteAddress = '203.0.113.7') {
  const socket = Object.assign(new EventEmitter(), {
    remoteAddress,
    bytesRead: 0,
    bytesWritten: 0,
    destroyed: false,
    destroy() {
      socket.destroyed = true;
      socket.emit('close');
    },
  });
  return socket;
}

function account(overrides: Partial<GatewayAccount> = {}): GatewayAccount {
  return {
    userId: 'user-1',
    proxyUserId: '',
    meterKey: 'user-1',
    username: 'alice',
    passwordDigest: Buffer.alloc(32),
    passwordVersion: 0,
    totalKb: 10,
    usedKbAtFetch: 0,
    localBytes: 0,
    blocked: false,
    authorizedIps: [],
    authorizedIpsOnly: false,
    recordDomains: true,
    paused: false,
    countries: [],
    maxConnections: undefined,
    gone: false,
    fetchedAt: Date.now(),
    ...overrides,
  };
}

function registry(maxPerSource = 2) {
  const added: { upload: number; download: number }[] = [];
  // Every account's data is this gateway's to carry here: the slices are tested below and in meter.test.ts.
  const meter = {
    add(target: GatewayAccount, upload: number, download: number) {
      added.push({ upload, download });
      target.localBytes += upload + download;
    },
    wantsSlice: () => false,
  } as unknown as Meter;
  const open = new OpenConnections({
    maxPerSource,
    meter,
    accounts: { refresh: async () => {} } as unknown as AccountCache,
    log: { error() {} } as unknown as FastifyBaseLogger,
  });
  return { open, added };
}

describe('open connections', () => {
  it('counts connections per source address, refuses one too many, and lets another in once one closes', () => {
    const { open } = registry(2);
    const [one, two, three] = [fakeSocket(), fakeSocket(), fakeSocket()];
    for (const socket of [one, two]) {
      const connection = newConnection(socket as unknown as Socket);
      expect(open.admit(connection)).toBe(true);
      open.add(connection);
    }
    expect(open.admit(newConnection(three as unknown as Socket))).toBe(false);
    expect(three.destroyed).toBe(true);
    expect(open.refusedPerIpLimit).toBe(1);
    expect(open.admit(newConnection(fakeSocket('198.51.100.1') as unknown as Socket))).toBe(true);
    one.destroy();
    expect(open.size).toBe(1);
    expect(open.admit(newConnection(fakeSocket() as unknown as Socket))).toBe(true);
  });

  it('meters only new bytes, in both directions, and cuts every connection of an account at its limit', () => {
    const { open, added } = registry(10);
    const alice = account({ totalKb: 2 });
    const sockets = [fakeSocket(), fakeSocket()] as const;
    const [first, second] = sockets.map((socket) => {
      const connection = newConnection(socket as unknown as Socket);
      connection.account = alice;
      open.add(connection);
      return connection;
    }) as [Connection, Connection];
    sockets[0].bytesRead = 100;
    sockets[0].bytesWritten = 400;
    open.meter(first);
    open.meter(first);
    expect(added).toEqual([{ upload: 100, download: 400 }]);
    expect(sockets[1].destroyed).toBe(false);
    sockets[1].bytesWritten = 2048;
    open.meter(second);
    expect(sockets.every((socket) => socket.destroyed)).toBe(true);
    expect(open.size).toBe(0);
  });

  it('holds a connection whose slice is spent until the next comes, and cuts every one when none does', async () => {
    // The account has 4 KB beside the other gateways' leases; nothing is written meanwhile, so a lease is what is asked
    // for, up to that.
    const available = 4;
    let answerNow: () => void = () => {};
    // The reservation reaches the database a few ticks after it is asked for.
    const answer = () => new Promise((resolve) => setTimeout(resolve, 5)).then(() => answerNow());
    const sql: SqlClient = {
      async query(text, params = []) {
        if (!text.includes('reserve_residential_data')) return { rows: [] };
        await new Promise<void>((resolve) => {
          answerNow = resolve;
        });
        return { rows: [{ kb: Math.min(Number(params[3]), available) }] };
      },
    };
    const meter = new Meter({ sql, gatewayId: 'g', sliceKb: 2, leaseMs: 30_000, shortForMs: 0, onError() {} });
    const open = new OpenConnections({
      maxPerSource: 10,
      meter,
      accounts: { refresh: async () => {} } as unknown as AccountCache,
      log: { error() {} } as unknown as FastifyBaseLogger,
    });
    const alice = account({ totalKb: 1000 });
    const sockets = [fakeSocket(), fakeSocket()] as const;
    const [first] = sockets.map((socket) => {
      const connection = newConnection(socket as unknown as Socket);
      connection.account = alice;
      open.add(connection);
      return connection;
    }) as [Connection, Connection];
    // No slice yet: the first bytes wait for one.
    sockets[0].bytesWritten = 1000;
    const slice = open.meter(first);
    expect(slice).toBeInstanceOf(Promise);
    expect(open.heldBy(first)).toBeInstanceOf(Promise);
    await answer();
    await slice;
    expect(open.heldBy(first)).toBeUndefined();
    // 3 KB given (what was carried, rounded up, and a slice of 2); within it nothing waits.
    expect(meter.leaseLeft(alice.userId)).toBe(3 * 1024 - 1000);
    sockets[0].bytesWritten = 2000;
    expect(open.meter(first)).toBeUndefined();
    // Past it: the next slice is short (4 KB in all), then spent, and every connection is cut.
    sockets[0].bytesWritten = 3100;
    const next = open.meter(first);
    expect(next).toBeInstanceOf(Promise);
    await answer();
    await next;
    expect(sockets.every((socket) => !socket.destroyed)).toBe(true);
    sockets[0].bytesWritten = 4200;
    const last = open.meter(first);
    await answer();
    await last;
    expect(sockets.every((socket) => socket.destroyed)).toBe(true);
  });

  it('takes a connection as revoked once its account is blocked, re-passworded or no longer allows its address', () => {
    const connection = newConnection(fakeSocket() as unknown as Socket);
    expect(revoked(connection)).toBe(false);
    connection.account = account();
    connection.via = 'password';
    expect(revoked(connection)).toBe(false);
    connection.account.passwordVersion = 1;
    expect(revoked(connection)).toBe(true);
    connection.passwordVersion = 1;
    connection.account.authorizedIpsOnly = true;
    expect(revoked(connection)).toBe(true);
    connection.account.authorizedIps = ['203.0.113.7'];
    expect(revoked(connection)).toBe(false);
    connection.account.blocked = true;
    expect(revoked(connection)).toBe(true);
    connection.account.blocked = false;
    connection.via = 'ip';
    connection.account.authorizedIps = [];
    expect(revoked(connection)).toBe(true);
  });
});
