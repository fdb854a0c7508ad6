import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AccountCache, GatewayAccount } from './accounts.ts';
import { type Connection, newConnection, OpenConnections, revoked } from './connections.ts';
import type { Meter } from './meter.ts';

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
    username: 'alice',
    passwordDigest: Buffer.alloc(32),
    passwordVersion: 0,
    totalKb: 10,
    usedKbAtFetch: 0,
    localBytes: 0,
    blocked: false,
    authorizedIps: [],
    authorizedIpsOnly: false,
    gone: false,
    fetchedAt: Date.now(),
    ...overrides,
  };
}

function registry(maxPerSource = 2) {
  const added: { upload: number; download: number }[] = [];
  const meter = {
    add(target: GatewayAccount, upload: number, download: number) {
      added.push({ upload, download });
      target.localBytes += upload + download;
    },
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
