import { randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, sessions } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { SignedIn } from '../auth/guards.ts';

/** How recent a sign-in must be to change the password without typing the old one (the spec's dialog has no such field). */
export const FRESH_SESSION_MS = 24 * 60 * 60 * 1000;

/**
 * One transaction: the password hash of the account's 'credential' sign-in is replaced (or created, for an account made
 * with Google or Discord), and every other session of the account is deleted.
 */
export async function changePassword({
  db,
  signedIn,
  passwordHash,
  now,
}: {
  db: Db;
  signedIn: SignedIn;
  passwordHash: string;
  now: Date;
}): Promise<void> {
  if (now.getTime() - signedIn.session.createdAt.getTime() > FRESH_SESSION_MS) {
    throw new AppError(
      'FORBIDDEN',
      'For your security, sign out and sign in again (within the last 24 hours) before changing your password.',
    );
  }
  const userId = signedIn.user.id;
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(accounts)
      .set({ password: passwordHash, updatedAt: now })
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
      .returning({ id: accounts.id });
    if (updated.length === 0) {
      await tx.insert(accounts).values({
        id: randomUUID(),
        userId,
        providerId: 'credential',
        accountId: userId,
        password: passwordHash,
        createdAt: now,
        updatedAt: now,
      });
    }
    await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, signedIn.session.id)));
  });
}
