import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authorizedIps, proxyUsers } from '../../db/schema.ts';
import { ownedProxyUser } from './proxy-user-rows.ts';

/**
 * Deletes a proxy user: its row stays, marked deleted, so its usage keeps its name and the gateway refuses it; its
 * authorised IPs are freed and its name is free again at once.
 */
export async function deleteProxyUser({ db, userId, id }: { db: Db; userId: string; id: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await ownedProxyUser(tx, userId, id);
    await tx.delete(authorizedIps).where(eq(authorizedIps.proxyUserId, id));
    await tx.update(proxyUsers).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(proxyUsers.id, id));
  });
}
