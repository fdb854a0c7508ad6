import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type AccountCache, type GatewayAccount, remainingBytes } from './accounts.ts';
import type { AuthFailureLimit } from './auth-failures.ts';
import { newConnection, type OpenConnections } from './connections.ts';
import type { GatewayContext } from './context.ts';
import { authenticate, bind, credentialsOf } from './credentials.ts';
import { VerifiedCredentials } from './verified-credentials.ts';

const basic = (value: string) => `Basic ${Buffer.from(value).toString('base64')}`;

function account(password: string, overrides: Partial<GatewayAccount> = {}): GatewayAccount {
  return {
    userId: 'user-1',
    proxyUserId: '',
    meterKey: 'user-1',
    username: 'alice',
    passwordDigest: createHash('sha256').update(password).digest(),
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

const CACHE_MS = 5000;

function context(alice: GatewayAccount, cacheMs = CACHE_MS) {
  const reads: string[] = [];
  const failures: string[] = [];
  const value = {
    config: { cacheMs },
    verified: new VerifiedCredentials(cacheMs),
    accounts: {
      get: async (username: string) => {
        reads.push(username);
        return username === alice.username && !alice.gone ? alice : undefined;
      },
      byAuthorizedIp: async (ip: string) => (alice.authorizedIps.includes(ip) ? alice : undefined),
    } as unknown as AccountCache,
    authFailures: {
      refusedFor: async () => 0,
      fail: async (source: string) => void failures.push(source),
    } as unknown as AuthFailureLimit,
    // Every account's data is this gateway's to carry (the slices are the meter's, tested there).
    open: {
      meter() {},
      mayCarry: async (account: GatewayAccount) => remainingBytes(account) > 0,
      whyStopped: () => 'usedUp',
      admitUser: () => true,
      countConnection() {},
    } as unknown as OpenConnections,
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

  it('does not read nor check again credentials it verified, on a new connection, over HTTP and SOCKS alike', async () => {
    const alice = account('right');
    const { value, reads } = context(alice);
    const header = { authorization: basic('alice-country-de-session-ab12cd34-duration-60:right') };
    const socks = { username: 'alice', password: 'right' };
    for (const given of [header, header, socks, socks]) {
      expect(await authenticate(value, connectionFrom('203.0.113.7'), given)).toMatchObject({ account: alice });
    }
    expect(reads).toEqual(['alice', 'alice']);
    // The targeting of the line comes with it.
    expect(await authenticate(value, connectionFrom('203.0.113.7'), header)).toMatchObject({
      targeting: { country: 'DE', sessionId: 'ab12cd34' },
    });
  });

  it('keeps a keyed hash of the credentials, never anything that reveals the password', () => {
    const credentials = { username: 'alice', password: 'right' };
    const key = new VerifiedCredentials(CACHE_MS).keyOf(credentials) ?? '';
    expect(key).toHaveLength(44);
    expect(key).not.toContain('right');
    expect(key).not.toBe(createHash('sha256').update('right').digest('base64'));
    // Another process (another key) makes other keys of the same credentials; HTTP and SOCKS never meet.
    expect(new VerifiedCredentials(CACHE_MS).keyOf(credentials)).not.toBe(key);
    const verified = new VerifiedCredentials(CACHE_MS);
    expect(verified.keyOf({ authorization: 'alice:right' })).not.toBe(verified.keyOf(credentials));
    expect(verified.keyOf({ username: 'a:b', password: 'c' })).not.toBe(
      verified.keyOf({ username: 'a', password: 'b:c' }),
    );
  });

  it('never remembers a wrong password, nor a right one the account may not use', async () => {
    const alice = account('right');
    const { value, reads, failures } = context(alice);
    const wrong = { authorization: basic('alice:wrong') };
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await authenticate(value, connectionFrom('203.0.113.7'), wrong)).toEqual({ refused: 'wrongCredentials' });
    }
    expect(reads).toHaveLength(2);
    expect(failures).toHaveLength(2);
    alice.blocked = true;
    await authenticate(value, connectionFrom('203.0.113.7'), { username: 'alice', password: 'right' });
    expect(value.verified.size).toBe(0);
  });

  it('forgets verified credentials once the account shows a new password, a ban, deletion or used-up data', async () => {
    const changes: [string, (alice: GatewayAccount) => void, string][] = [
      [
        'password changed',
        (alice) => {
          alice.passwordDigest = createHash('sha256').update('rotated').digest();
          alice.passwordVersion++;
        },
        'wrongCredentials',
      ],
      ['banned or blocked', (alice) => Object.assign(alice, { blocked: true }), 'blocked'],
      ['deleted', (alice) => Object.assign(alice, { gone: true }), 'wrongCredentials'],
      ['data used up', (alice) => Object.assign(alice, { localBytes: alice.totalKb * 1024 }), 'usedUp'],
    ];
    for (const [change, apply, refused] of changes) {
      const alice = account('right');
      const { value, reads } = context(alice);
      for (const given of [{ authorization: basic('alice:right') }, { username: 'alice', password: 'right' }]) {
        expect(await authenticate(value, connectionFrom('203.0.113.7'), given), change).toMatchObject({
          account: alice,
        });
      }
      expect(value.verified.size, change).toBe(2);
      apply(alice);
      for (const given of [{ authorization: basic('alice:right') }, { username: 'alice', password: 'right' }]) {
        expect(await authenticate(value, connectionFrom('203.0.113.7'), given), change).toEqual({ refused });
      }
      expect(value.verified.size, change).toBe(0);
      expect(reads, change).toHaveLength(4);
    }
  });

  it('trusts verified credentials only while the account read is fresh, and not at all with a cache time of 0', async () => {
    const alice = account('right');
    const { value, reads } = context(alice);
    const given = { username: 'alice', password: 'right' };
    await authenticate(value, connectionFrom('203.0.113.7'), given);
    alice.fetchedAt = Date.now() - CACHE_MS;
    await authenticate(value, connectionFrom('203.0.113.7'), given);
    expect(reads).toHaveLength(2);
    const uncached = context(account('right'), 0);
    await authenticate(uncached.value, connectionFrom('203.0.113.7'), given);
    await authenticate(uncached.value, connectionFrom('203.0.113.7'), given);
    expect(uncached.reads).toHaveLength(2);
    expect(uncached.value.verified.size).toBe(0);
  });
});
