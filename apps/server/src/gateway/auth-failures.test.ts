import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { AuthFailureLimit, sourceKey } from './auth-failures.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;
// Against the machine's Redis (CI sets TEST_REDIS_URL=redis://127.0.0.1:6379); each test counts under its own prefix.
const redisUrl = process.env.TEST_REDIS_URL;

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

  it('lets a source in again once its window has ended, and warns once per window', async () => {
    const warnings: unknown[] = [];
    const log = { ...silent, warn: (fields: unknown) => warnings.push(fields) } as unknown as FastifyBaseLogger;
    const limit = await AuthFailureLimit.create({ perIp: 2, windowMs: 200, redis: undefined }, 0, log);
    // The window is read from the clock: moved past its end rather than waited for.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await limit.fail('198.51.100.4');
      expect(await limit.fail('198.51.100.4')).toBeGreaterThan(0);
      expect(await limit.fail('198.51.100.4')).toBeGreaterThan(0);
      expect(warnings).toEqual([
        { source: '198.51.100.4', failures: 2, windowMinutes: 200 / 60_000, refusedSeconds: 1 },
      ]);
      vi.setSystemTime(Date.now() + 199);
      expect(await limit.refusedFor('198.51.100.4')).toBe(1);
      vi.setSystemTime(Date.now() + 1);
      expect(await limit.refusedFor('198.51.100.4')).toBe(0);
      expect(await limit.fail('198.51.100.4')).toBe(0);
    } finally {
      vi.useRealTimers();
      await limit.close();
    }
  });

  it.runIf(redisUrl)('counts the failures on every gateway together in Redis, under the prefix', async () => {
    const keyPrefix = `storefront-test-${randomBytes(6).toString('hex')}:`;
    const limits = { perIp: 3, windowMs: 60_000, redis: { url: redisUrl ?? '', keyPrefix } };
    const [first, second] = await Promise.all([
      AuthFailureLimit.create(limits, 0, silent),
      AuthFailureLimit.create(limits, 0, silent),
    ]);
    const redis = new Redis(redisUrl ?? '');
    try {
      expect(await first.fail('198.51.100.5')).toBe(0);
      expect(await second.fail('198.51.100.5')).toBe(0);
      expect(await first.refusedFor('198.51.100.5')).toBe(0);
      expect(await second.fail('198.51.100.5')).toBeGreaterThan(59_000);
      expect(await first.refusedFor('198.51.100.5')).toBeGreaterThan(59_000);
      expect(await first.refusedFor('198.51.100.6')).toBe(0);
      expect(await redis.keys(`${keyPrefix}*`)).toEqual([`${keyPrefix}rate-limit:gateway-auth-failures:198.51.100.5`]);
      expect(await redis.pttl(`${keyPrefix}rate-limit:gateway-auth-failures:198.51.100.5`)).toBeGreaterThan(59_000);
    } finally {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
      await Promise.all([first.close(), second.close()]);
    }
  });

  it.runIf(redisUrl)(
    "reuses Redis's answer for a source not refused for checkMs: no round trip per request",
    async () => {
      const keyPrefix = `storefront-test-${randomBytes(6).toString('hex')}:`;
      const limits = { perIp: 2, windowMs: 60_000, redis: { url: redisUrl ?? '', keyPrefix } };
      const [reader, other] = await Promise.all([
        AuthFailureLimit.create(limits, 60_000, silent),
        AuthFailureLimit.create(limits, 0, silent),
      ]);
      const redis = new Redis(redisUrl ?? '');
      try {
        expect(await reader.refusedFor('198.51.100.7')).toBe(0);
        await other.fail('198.51.100.7');
        expect(await other.fail('198.51.100.7')).toBeGreaterThan(0);
        // Within checkMs, this gateway still answers from what Redis said; its own failures count at once.
        expect(await reader.refusedFor('198.51.100.7')).toBe(0);
        expect(await reader.fail('198.51.100.7')).toBeGreaterThan(0);
        expect(await reader.refusedFor('198.51.100.7')).toBeGreaterThan(0);
      } finally {
        const keys = await redis.keys(`${keyPrefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
        await Promise.all([reader.close(), other.close()]);
      }
    },
  );

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
