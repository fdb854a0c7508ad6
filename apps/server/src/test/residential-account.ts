import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { residentialAccounts, users } from '../db/schema.ts';
import { basicAuth } from './proxy-client.ts';

/** A customer with a residential account of `totalKb`, `usedKb` used, for the gateway's tests and benchmark. */
export async function createResidentialAccount(db: Db, { totalKb, usedKb = 0 }: { totalKb: number; usedKb?: number }) {
  const userId = randomUUID();
  const username = `res${randomBytes(5).toString('hex')}`;
  const password = randomBytes(12).toString('base64url');
  await db.insert(users).values({ id: userId, name: 'Residential', email: `${username}@example.com` });
  await db.insert(residentialAccounts).values({ userId, username, password, totalKb, usedKb });
  return { userId, username, password, auth: basicAuth(username, password) };
}

/** The account's used_kb as written in the database. */
export async function usedKbOf(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ usedKb: residentialAccounts.usedKb })
    .from(residentialAccounts)
    .where(eq(residentialAccounts.userId, userId));
  return row?.usedKb ?? -1;
}
