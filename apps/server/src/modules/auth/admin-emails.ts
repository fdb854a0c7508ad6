import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

/**
 * At start-up: gives the admin role to users named in ADMIN_EMAILS whose address is confirmed, and takes it from any
 * admin whose address is not (the role is never given for an address nobody has proven to own).
 */
export async function applyAdminEmails(
  db: Db,
  adminEmails: readonly string[],
): Promise<{ promoted: number; demoted: number }> {
  const now = new Date();
  const demoted = await db
    .update(users)
    .set({ role: 'user', updatedAt: now })
    .where(and(eq(users.role, 'admin'), eq(users.emailVerified, false)))
    .returning({ id: users.id });
  if (adminEmails.length === 0) return { promoted: 0, demoted: demoted.length };
  const promoted = await db
    .update(users)
    .set({ role: 'admin', updatedAt: now })
    .where(sql`lower(${users.email}) in ${adminEmails} and ${users.emailVerified} = true and ${users.role} <> 'admin'`)
    .returning({ id: users.id });
  return { promoted: promoted.length, demoted: demoted.length };
}

/** Gives the admin role to one user when their address is in ADMIN_EMAILS and confirmed (at confirmation, at sign-in). */
export async function promoteIfAdmin(db: Db, adminEmails: ReadonlySet<string>, userId: string): Promise<boolean> {
  if (adminEmails.size === 0) return false;
  const [user] = await db
    .select({ email: users.email, verified: users.emailVerified, role: users.role })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || !user.verified || user.role === 'admin' || !adminEmails.has(user.email.toLowerCase())) return false;
  await db.update(users).set({ role: 'admin', updatedAt: new Date() }).where(eq(users.id, userId));
  return true;
}
