import { CUSTOMER_MATCHES_MAX, type CustomerMatches } from '@storefront/contract';
import { asc, desc, eq, like, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, users } from '../../db/schema.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A LIKE pattern for "starts with": the search's own %, _ and \ are matched as themselves. */
const startsWith = (text: string) => `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * GET /api/admin/users/search: the customers an administrator may mean, each branch served by an index (e-mails are
 * stored lower case; the e-mail and name prefixes have their own pattern indexes): the exact e-mail first.
 */
export async function findCustomers({ db, query }: { db: Db; query: string }): Promise<CustomerMatches> {
  const text = query.trim();
  const lower = text.toLowerCase();
  const branches: SQL[] = [
    eq(users.email, lower),
    like(users.email, startsWith(lower)),
    like(sql`lower(${users.name})`, startsWith(lower)),
    eq(users.id, text),
  ];
  if (UUID.test(text)) {
    branches.push(eq(users.id, sql`(select ${orders.userId} from ${orders} where ${orders.id} = ${lower}::uuid)`));
  }
  const rows = await db
    .select({ id: users.id, email: users.email, name: users.name, createdAt: users.createdAt })
    .from(users)
    .where(or(...branches))
    .orderBy(desc(eq(users.email, lower)), asc(users.email))
    .limit(CUSTOMER_MATCHES_MAX + 1);
  return {
    matches: rows.slice(0, CUSTOMER_MATCHES_MAX).map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    more: rows.length > CUSTOMER_MATCHES_MAX,
  };
}
