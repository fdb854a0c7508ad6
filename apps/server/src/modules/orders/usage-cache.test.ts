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

describe('usage cache', () => {
  it('listens on the channel the trigger notifies, and reads a customer once until their account changes', async () => {
    const fake = fakeDatabase();
    const cache = await createUsageCache(fake.database);
    expect(fake.channel()).toBe(RESIDENTIAL_ACCOUNTS_CHANNEL);
    let reads = 0;
    let used = 1;
    const read = async () => {
      reads += 1;
      return usage(used);
    };
    expect(await cache.get('ann', read)).toEqual(usage(1));
    used = 2;
    expect(await cache.get('ann', read)).toEqual(usage(1));
    expect(reads).toBe(1);
    fake.notify('bob');
    expect(await cache.get('ann', read)).toEqual(usage(1));
    fake.notify('ann');
    expect(await cache.get('ann', read)).toEqual(usage(2));
    expect(reads).toBe(2);
  });

  it('does not keep an answer read while a change was notified (it may predate the change)', async () => {
    const fake = fakeDatabase();
    const cache = await createUsageCache(fake.database);
    let reads = 0;
    const racing = async () => {
      reads += 1;
      fake.notify('ann');
      return usage(1);
    };
    await cache.get('ann', racing);
    await cache.get('ann', async () => {
      reads += 1;
      return usage(2);
    });
    expect(reads).toBe(2);
  });

  it('reads the database every time while it cannot hear the notifications, and forgets what it kept before', async () => {
    const fake = fakeDatabase();
    const cache = await createUsageCache(fake.database);
    let reads = 0;
    const read = async () => {
      reads += 1;
      return usage(reads);
    };
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
