import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AccountCache, GatewayAccount } from './accounts.ts';
import type { AuthFailureLimit } from './auth-failures.ts';
import { newConnection, type OpenConnections } from './connections.ts';
import type { GatewayContext } from './context.ts';
import { authenticate, bind, credentialsOf } from './credentials.ts';

const basic = (value: string) => `Basic ${Buffer.from(value).toString('base64')}`;

function account(password: string, overrides: Partial<GatewayAccount> = {}): GatewayAccount {
  return {
    userId: 'user-1',
    username: 'alice',
    passwordDigest: createHash('sha256').update(password).digest(),
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

function context(alice: GatewayAccount) {
  const reads: string[] = [];
  const failures: string[] = [];
  const value = {
    accounts: {
      get: async (username: string) => {
        reads.push(username);
        return username === alice.username ? alice : undefined;
      },
      byAuthorizedIp: async (ip: string) => (alice.authorizedIps.includes(ip) ? alice : undefined),
    } as unknown as AccountCache,
    authFailures: {
      refusedFor: async () => 0,
      fail: async (source: string) => void failures.push(source),
    } as unknown as AuthFailureLimit,
    open: { meter() {} } as unknown as OpenConnections,
  } as GatewayContext;
  return { value, reads, failures };
}

const connectionFrom = (ip: string) => newConnection({ remoteAddress: ip } as Socket);

describe('proxy credentials', () => {
  it('reads Basic credentials; a header without a username is no credentials (clients begin so)', () => {
    expect(credentialsOf(basic('alice:s3cret:with:colons'))).toEqual({
      username: 'alice',
      password: 's3cret:with:colons',
    });
    expect(credentialsOf(basic('alice'))).toEqual({ username: 'alice', password: '' });
    expect(credentialsOf(basic(':secret'))).toBeUndefined();
    expect(credentialsOf('Bearer abc')).toBeUndefined();
    expect(credentialsOf(undefined)).toBeUndefined();
  });

  it('grants the right password, counts a wrong one against the source, and refuses a blocked or used-up account', async () => {
    const alice = account('right');
    const { value, failures } = context(alice);
    const connection = connectionFrom('203.0.113.7');
    expect(await authenticate(value, connection, { authorization: basic('alice:right') })).toMatchObject({
      account: alice,
      via: 'password',
    });
    expect(await authenticate(value, connection, { username: 'alice', password: 'wrong' })).toEqual({
      refused: 'wrongCredentials',
    });
    expect(await authenticate(value, connection, { username: 'mallory', password: 'right' })).toEqual({
      refused: 'wrongCredentials',
    });
    expect(failures).toEqual(['203.0.113.7', '203.0.113.7']);
    alice.blocked = true;
    expect(await authenticate(value, connection, { username: 'alice', password: 'right' })).toEqual({
      refused: 'blocked',
    });
    alice.blocked = false;
    alice.usedKbAtFetch = alice.totalKb;
    expect(await authenticate(value, connection, { username: 'alice', password: 'right' })).toEqual({
      refused: 'usedUp',
    });
  });

  it('does not read the account again for the same header on a kept-alive connection, until the password changes', async () => {
    const alice = account('right');
    const { value, reads } = context(alice);
    const connection = connectionFrom('203.0.113.7');
    const authorization = basic('alice:right');
    const granted = await authenticate(value, connection, { authorization });
    if ('refused' in granted) throw new Error('refused');
    bind(value, connection, granted, authorization);
    await authenticate(value, connection, { authorization });
    expect(reads).toEqual(['alice']);
    alice.passwordVersion++;
    await authenticate(value, connection, { authorization });
    expect(reads).toEqual(['alice', 'alice']);
  });

  it('lets an authorised address in without credentials, and keeps "only from these IPs" for passwords', async () => {
    const alice = account('right', { authorizedIps: ['203.0.113.7'], authorizedIpsOnly: true });
    const { value } = context(alice);
    expect(await authenticate(value, connectionFrom('203.0.113.7'), undefined)).toMatchObject({ via: 'ip' });
    expect(await authenticate(value, connectionFrom('198.51.100.1'), undefined)).toEqual({
      refused: 'credentialsRequired',
    });
    expect(await authenticate(value, connectionFrom('198.51.100.1'), { username: 'alice', password: 'right' })).toEqual(
      { refused: 'notThisIp' },
    );
  });
});
