import { randomUUID } from 'node:crypto';
import { PASSWORD_CHANGE_FRESH_MINUTES, passwordChangeMessages } from '@storefront/contract';
import { verifyPassword } from 'better-auth/crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, sessions } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { passwordChangedEmail } from '../auth/emails.ts';
import type { SignedIn } from '../auth/guards.ts';
import { enqueueEmail } from '../notifications/outbox.ts';

/** A sign-in this recent changes the password with the spec's dialog alone; an older one proves it is the owner. */
export const FRESH_SESSION_MS = PASSWORD_CHANGE_FRESH_MINUTES * 60 * 1000;

const CREDENTIAL = 'credential';

export interface PasswordProof {
  currentPassword?: string | undefined;
  /** The authenticator app's code, when two-factor is on. */
  code?: string | undefined;
}

/**
 * Whether the request may change the password: a sign-in of the last minutes may; an older one must give the current
 * password, and the authenticator's code when two-factor is on (`checkCode`, better-auth's own check). A stolen session
 * cookie alone then cannot take the account over. An account without a password (social sign-in) must sign in again.
 */
export async function provePasswordChange({
  db,
  signedIn,
  proof,
  now,
  checkCode,
}: {
  db: Db;
  signedIn: SignedIn;
  proof: PasswordProof;
  now: Date;
  checkCode: (code: string) => Promise<boolean>;
}): Promise<void> {
  if (now.getTime() - signedIn.session.createdAt.getTime() <= FRESH_SESSION_MS) return;
  const [credential] = await db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, signedIn.user.id), eq(accounts.providerId, CREDENTIAL)));
  if (!credential?.hash) throw new AppError('FORBIDDEN', passwordChangeMessages.signInAgain);
  if (!proof.currentPassword) throw new AppError('BAD_REQUEST', passwordChangeMessages.currentPasswordRequired);
  if (!(await verifyPassword({ hash: credential.hash, password: proof.currentPassword }))) {
    throw new AppError('BAD_REQUEST', passwordChangeMessages.wrongCurrentPassword);
  }
  if (!signedIn.user.twoFactorEnabled) return;
  if (!proof.code) throw new AppError('BAD_REQUEST', passwordChangeMessages.codeRequired);
  if (!(await checkCode(proof.code))) throw new AppError('BAD_REQUEST', passwordChangeMessages.wrongCode);
}

/**
 * One transaction: the password hash of the account's 'credential' sign-in is replaced (or created, for an account made
 * with Google or Discord), every other session of the account is deleted, and the owner's notice is written to the
 * outbox (sent once the transaction has committed).
 */
export async function changePassword({
  db,
  signedIn,
  passwordHash,
  brand,
  now,
}: {
  db: Db;
  signedIn: SignedIn;
  passwordHash: string;
  brand: Branding;
  now: Date;
}): Promise<void> {
  const userId = signedIn.user.id;
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(accounts)
      .set({ password: passwordHash, updatedAt: now })
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, CREDENTIAL)))
      .returning({ id: accounts.id });
    if (updated.length === 0) {
      await tx.insert(accounts).values({
        id: randomUUID(),
        userId,
        providerId: CREDENTIAL,
        accountId: userId,
        password: passwordHash,
        createdAt: now,
        updatedAt: now,
      });
    }
    await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, signedIn.session.id)));
    await enqueueEmail(tx, `password-changed:${randomUUID()}`, passwordChangedEmail(brand, signedIn.user.email));
  });
}
