import type { Preferences } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { customerPreferences } from '../../db/schema.ts';

/** The customer's e-mail switches (no row: the defaults). */
export async function readPreferences(db: Db, userId: string): Promise<Preferences> {
  const [row] = await db
    .select({ usageEmails: customerPreferences.usageEmails })
    .from(customerPreferences)
    .where(eq(customerPreferences.userId, userId));
  return { usageEmails: row?.usageEmails ?? true };
}

export async function savePreferences(db: Db, userId: string, preferences: Preferences): Promise<Preferences> {
  await db
    .insert(customerPreferences)
    .values({ userId, usageEmails: preferences.usageEmails })
    .onConflictDoUpdate({
      target: customerPreferences.userId,
      set: { usageEmails: preferences.usageEmails, updatedAt: new Date() },
    });
  return preferences;
}
