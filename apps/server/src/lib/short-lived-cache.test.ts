import { describe, expect, it } from 'vitest';
import { shortLivedCache } from './short-lived-cache.ts';

describe('shortLivedCache', () => {
  it('shares one load between concurrent callers and reloads after the TTL or an invalidation', async () => {
    let clock = 0;
    let loads = 0;
    const cache = shortLivedCache(
      1000,
      async () => ++loads,
      () => clock,
    );
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual([1, 1, 1]);
    clock = 999;
    expect(await cache.get()).toBe(1);
    clock = 1000;
    expect(await cache.get()).toBe(2);
    cache.invalidate();
    expect(await cache.get()).toBe(3);
  });

  it('does not keep a failed load', async () => {
    let fail = true;
    const cache = shortLivedCache(1000, async () => {
      if (fail) throw new Error('down');
      return 'ok';
    });
    await expect(cache.get()).rejects.toThrow('down');
    fail = false;
    expect(await cache.get()).toBe('ok');
  });
});
