import type { Preferences, PreferencesRequest } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { customerPreferences } from '../../db/schema.ts';

/** The customer's switches (no row: the defaults). */
export async function readPreferences(db: Db, userId: string): Promise<Preferences> {
  const [row] = await db
    .select({ usageEmails: customerPreferences.usageEmails, recordDomains: customerPreferences.recordDomains })
    .from(customerPreferences)
    .where(eq(customerPreferences.userId, userId));
  return { usageEmails: row?.usageEmails ?? true, recordDomains: row?.recordDomains ?? true };
}

/** Sets the switches given; the others keep their values (or defaults). */
export async function savePreferences(db: Db, userId: string, changes: PreferencesRequest): Promise<Preferences> {
  const [row] = await db
    .insert(customerPreferences)
    .values({ userId, ...changes })
    .onConflictDoUpdate({ target: customerPreferences.userId, set: { ...changes, updatedAt: new Date() } })
    .returning({ usageEmails: customerPreferences.usageEmails, recordDomains: customerPreferences.recordDomains });
  return { usageEmails: row?.usageEmails ?? true, recordDomains: row?.recordDomains ?? true };
}
