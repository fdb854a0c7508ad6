import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

/** Gives the admin role to existing users named in ADMIN_EMAILS (new ones get it at sign-up). Returns how many changed. */
export async function applyAdminEmails(db: Db, adminEmails: readonly string[]): Promise<number> {
  if (adminEmails.length === 0) return 0;
  const promoted = await db
    .update(users)
    .set({ role: 'admin', updatedAt: new Date() })
    .where(sql`lower(${users.email}) in ${adminEmails} and ${users.role} <> 'admin'`)
    .returning({ id: users.id });
  return promoted.length;
}
