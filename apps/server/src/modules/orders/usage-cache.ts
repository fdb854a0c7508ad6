import type { OrderUsage } from '@storefront/contract';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client.ts';

/** The channel a trigger on residential_accounts notifies with the customer's id (migration 0012). */
export const RESIDENTIAL_ACCOUNTS_CHANNEL = 'residential_accounts';

/** At most this many customers' usage answers are kept per instance, the least recently read going first. */
const MAX_ENTRIES = 20_000;

export interface UsageCache {
  /**
   * The customer's usage answer: kept, or read with `read` and kept. Kept only while this instance hears the database's
   * notifications, and only when none arrived while it was read (it may predate the change notified).
   */
  get(userId: string, read: () => Promise<OrderUsage[]>): Promise<OrderUsage[]>;
  /** Stops listening; every later read goes to the database. */
  close(): Promise<void>;
}

/**
 * What GET /api/orders/usage answers, per customer, kept until the database says the customer's residential account
 * changed (a NOTIFY sent at commit by a trigger, so every instance hears of every change, whoever made it). While the
 * listening connection is down nothing is kept or served from memory.
 */
export async function createUsageCache(database: Pick<Database, 'listen'>): Promise<UsageCache> {
  const kept = new LRUCache<string, OrderUsage[]>({ max: MAX_ENTRIES });
  let listening = false;
  // Raised by every notification and every change of the listening state: a read that saw it change may be stale.
  let generation = 0;

  const stop = await database.listen(RESIDENTIAL_ACCOUNTS_CHANNEL, {
    onNotify(userId) {
      generation += 1;
      kept.delete(userId);
    },
    onReady() {
      generation += 1;
      kept.clear();
      listening = true;
    },
    onLost() {
      generation += 1;
      listening = false;
      kept.clear();
    },
  });

  return {
    async get(userId, read) {
      if (listening) {
        const answer = kept.get(userId);
        if (answer) return answer;
      }
      const before = generation;
      const answer = await read();
      if (listening && generation === before) kept.set(userId, answer);
      return answer;
    },
    async close() {
      listening = false;
      kept.clear();
      await stop();
    },
  };
}
