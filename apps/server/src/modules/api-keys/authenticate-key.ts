import { API_KEY_PREFIX } from '@storefront/contract';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiKeys, users } from '../../db/schema.ts';
import { isBannedNow } from '../../lib/ban.ts';
import type { KeyHolder } from '../auth/guards.ts';
import { hashApiKey } from './api-keys.ts';

/** How often `last_used_at` is written: a bot reading every second does not turn each read into a write. */
const LAST_USED_RESOLUTION = sql`interval '1 minute'`;

/**
 * The customer a key belongs to, or null for an unknown, revoked or malformed key, or a banned customer. Read from the
 * database on every use (one index probe), so that a revocation or a ban applies to the very next request.
 */
export async function authenticateApiKey({ db, key }: { db: Db; key: string }): Promise<KeyHolder | null> {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 100) return null;
  const keyHash = hashApiKey(key);
  const [found] = await db
    .select({
      keyId: apiKeys.id,
      userId: apiKeys.userId,
      banned: users.banned,
      banExpires: users.banExpires,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash));
  if (!found || isBannedNow(found)) return null;
  if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > 60_000) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(apiKeys.id, found.keyId),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - ${LAST_USED_RESOLUTION}`)),
        ),
      );
  }
  return { keyId: found.keyId, userId: found.userId };
}
