import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AuthFailureLimit, sourceKey } from './auth-failures.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;

describe('failed proxy authentications per source', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
  ])('counts %s as %s', (address, key) => {
    expect(sourceKey(address)).toBe(key);
  });

  it('refuses a source that reached the limit and no other, in memory', async () => {
    const limit = await AuthFailureLimit.create({ perIp: 3, windowMs: 60_000, redis: undefined }, 0, silent);
    try {
      expect(await limit.fail('198.51.100.1')).toBe(0);
      expect(await limit.fail('198.51.100.1')).toBe(0);
      expect(await limit.refusedFor('198.51.100.1')).toBe(0);
      expect(await limit.fail('198.51.100.1')).toBeGreaterThan(59_000);
      expect(await limit.refusedFor('198.51.100.1')).toBeGreaterThan(59_000);
      expect(await limit.refusedFor('198.51.100.2')).toBe(0);
    } finally {
      await limit.close();
    }
  });

  it('counts in memory while Redis cannot be reached, rather than not at all', async () => {
    const limit = await AuthFailureLimit.create(
      { perIp: 2, windowMs: 60_000, redis: { url: 'redis://127.0.0.1:1', keyPrefix: 'unreachable:' } },
      0,
      silent,
    );
    try {
      await limit.fail('198.51.100.3');
      expect(await limit.refusedFor('198.51.100.3')).toBe(0);
      await limit.fail('198.51.100.3');
      expect(await limit.refusedFor('198.51.100.3')).toBeGreaterThan(59_000);
    } finally {
      await limit.close();
    }
  });
});
