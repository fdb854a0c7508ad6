import type { ProxyUserPassword } from '@storefront/contract';
import type { Db } from '../../db/client.ts';
import { ownedProxyUser } from './proxy-user-rows.ts';

/** A proxy user's password, when its customer asks for it (a session only: never in a list, never for a key). */
export async function showProxyUserPassword({
  db,
  userId,
  id,
}: {
  db: Db;
  userId: string;
  id: string;
}): Promise<ProxyUserPassword> {
  return db.transaction(async (tx) => {
    const { row } = await ownedProxyUser(tx, userId, id);
    return { password: row.password };
  });
}
