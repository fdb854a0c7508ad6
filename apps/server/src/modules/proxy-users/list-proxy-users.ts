import type { ProxyUserList } from '@storefront/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proxyUsers, residentialAccounts } from '../../db/schema.ts';
import { ipsOf, rowColumns, toProxyUser } from './proxy-user-rows.ts';

/**
 * The customer's live proxy users, oldest first, without their passwords. At most PROXY_USERS_MAX: a bounded list,
 * answered whole. None (not a 404) without residential data, so a key's reader sees an empty list.
 */
export async function listProxyUsers({ db, userId }: { db: Db; userId: string }): Promise<ProxyUserList> {
  const [account] = await db
    .select({ username: residentialAccounts.username })
    .from(residentialAccounts)
    .where(eq(residentialAccounts.userId, userId));
  if (!account) return { proxyUsers: [] };
  const rows = await db
    .select(rowColumns)
    .from(proxyUsers)
    .where(and(eq(proxyUsers.userId, userId), isNull(proxyUsers.deletedAt)))
    .orderBy(asc(proxyUsers.createdAt), asc(proxyUsers.id));
  const ips = await ipsOf(
    db,
    rows.map(({ row }) => row.id),
  );
  return { proxyUsers: rows.map((found) => toProxyUser(account.username, found, ips.get(found.row.id) ?? [])) };
}
