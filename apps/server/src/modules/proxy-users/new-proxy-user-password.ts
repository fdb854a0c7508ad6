import type { ProxyUserPassword } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proxyUsers } from '../../db/schema.ts';
import { generatePassword, ownedProxyUser } from './proxy-user-rows.ts';

/** A new password for a proxy user (the one given, else generated): the old one is refused within GATEWAY_CACHE_MS. */
export async function newProxyUserPassword({
  db,
  userId,
  id,
  password,
}: {
  db: Db;
  userId: string;
  id: string;
  password: string | undefined;
}): Promise<ProxyUserPassword> {
  return db.transaction(async (tx) => {
    await ownedProxyUser(tx, userId, id);
    const next = password ?? generatePassword();
    await tx.update(proxyUsers).set({ password: next, updatedAt: new Date() }).where(eq(proxyUsers.id, id));
    return { password: next };
  });
}
