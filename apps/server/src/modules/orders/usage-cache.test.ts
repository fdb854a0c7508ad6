import type { OrderUsage } from '@storefront/contract';
import { describe, expect, it } from 'vitest';
import type { ListenHandlers } from '../../db/client.ts';
import { createUsageCache, RESIDENTIAL_ACCOUNTS_CHANNEL } from './usage-cache.ts';

/** A database whose notifications the test sends by hand. */
function fakeDatabase() {
  let handlers: ListenHandlers | undefined;
  let channel = '';
  return {
    database: {
      async listen(name: string, given: ListenHandlers) {
        channel = name;
        handlers = given;
        given.onReady();
        return async () => {};
      },
    },
    channel: () => channel,
    notify: (userId: string) => handlers?.onNotify(userId),
    lose: () => handlers?.onLost(),
    regain: () => handlers?.onReady(),
  };
}

const usage = (usedInKb: number): OrderUsage[] => [
  { usedInKb, totalInKb: 1_024_000, endpoint: 'shop.example:8080', username: 'res1', password: 'p' },
];

/** A read of the database that counts its calls; `answer` gives what the n-th call returns (from 1). */
function countedRead(answer: (call: number) => OrderUsage[]) {
  const counted = { calls: 0, read: async () => answer(++counted.calls) };
  return counted;
}

describe('usage cache', () => {
  it('listens on the channel the trigger notifies, and reads a customer once until their account changes', async () => {
    const fake = fakeDatabase();
    const cache = await createUsageCache(fake.database);
    expect(fake.channel()).toBe(RESIDENTIAL_ACCOUNTS_CHANNEL);
    const ann = countedRead(usage);
    expect(await cache.get('ann', ann.read)).toEqual(usage(1));
    expect(await cache.get('ann', ann.read)).toEqual(usage(1));
    expect(ann.calls).toBe(1);
    fake.notify('bob');
    expect(await cache.get('ann', ann.read)).toEqual(usage(1));
    fake.notify('ann');
    expect(await cache.get('ann', ann.read)).toEqual(usage(2));
    expect(ann.calls).toBe(2);
  });

  it('does not keep an answer read while a change was notified (it may predate the change)', async () => {
    const fake = fakeDatabase();
    const cache = await createUsageCache(fake.database);
    const racing = countedRead((call) => {
      fake.notify('ann');
      return usage(call);
    });
    await cache.get('ann', racing.read);
    expect(await cache.get('ann', countedRead(() => usage(2)).read)).toEqual(usage(2));
    expect(racing.calls).toBe(1);
  });

  it('reads the database every time while it cannot hear the notifications, and forgets what it kept before', async () => {
    const fake = fakeDatabase();
    const cache = await createUsageCache(fake.database);
    const { read } = countedRead(usage);
    await cache.get('ann', read);
    fake.lose();
    expect(await cache.get('ann', read)).toEqual(usage(2));
    expect(await cache.get('ann', read)).toEqual(usage(3));
    fake.regain();
    expect(await cache.get('ann', read)).toEqual(usage(4));
    expect(await cache.get('ann', read)).toEqual(usage(4));
    await cache.close();
    expect(await cache.get('ann', read)).toEqual(usage(5));
  });
});
