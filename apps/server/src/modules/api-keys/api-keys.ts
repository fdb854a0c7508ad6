import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_LIMIT,
  API_KEY_PREFIX,
  API_KEY_START_LENGTH,
  type ApiKey,
  apiKeyMessages,
  type CreatedApiKey,
} from '@storefront/contract';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiKeys, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/** SHA-256 of a key, as stored: a key is 32 random bytes, so a slow password hash would add nothing but time. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** `psk_` and 43 base64url characters (256 random bits). */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

const toApiKey = (row: typeof apiKeys.$inferSelect): ApiKey => ({
  id: row.id,
  name: row.name,
  start: row.start,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** The customer's keys, newest first: name, first characters, created and last used; never a key or its hash. */
export async function listApiKeys({ db, userId }: { db: Db; userId: string }): Promise<ApiKey[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(toApiKey);
}

/**
 * Creates a key and answers it whole, the only time it is shown. At most API_KEY_LIMIT a customer: the customer's row
 * is locked while counting, so two creations at once cannot both take the last place.
 */
export async function createApiKey({
  db,
  userId,
  name,
}: {
  db: Db;
  userId: string;
  name: string;
}): Promise<CreatedApiKey> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [held] = await tx.select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, userId));
    if ((held?.n ?? 0) >= API_KEY_LIMIT) throw new AppError('CONFLICT', apiKeyMessages.limitReached);
    const key = newApiKey();
    const [row] = await tx
      .insert(apiKeys)
      .values({ userId, name, start: key.slice(0, API_KEY_START_LENGTH), keyHash: hashApiKey(key) })
      .returning();
    if (!row) throw new Error('the API key was not written');
    return { ...toApiKey(row), key };
  });
}

/** Deletes one of the customer's keys; a request made with it afterwards is refused (keys are checked on every use). */
export async function revokeApiKey({ db, userId, id }: { db: Db; userId: string; id: string }): Promise<void> {
  const deleted = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .returning({ id: apiKeys.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', apiKeyMessages.notFound);
}
