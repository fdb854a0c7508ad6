// An address's account before it is confirmed belongs to nobody yet: anyone can sign up with any address. Two rules keep
// a stranger who signed up first with somebody else's address (account pre-hijacking) from ever holding that account:
//  - a new sign-up with the address starts the unconfirmed account over with the new sign-up's password (and mails a
//    fresh link), so the address's owner can always take the account back by signing up themselves;
//  - confirming takes the password the account was signed up with, as well as the mailed token, so only a person who
//    holds both the mailbox and the password ends up with a confirmed account (the owner does not know a stranger's).

import { hashPassword, verifyJWT, verifyPassword } from 'better-auth/crypto';
import { and, eq, exists } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, users } from '../../db/schema.ts';

/** better-auth's provider id of an e-mail and password login. */
const CREDENTIAL = 'credential';

/** The unconfirmed account of `email` with its password login, if there is one. */
async function unconfirmedLogin(db: Db, email: string) {
  const [row] = await db
    .select({ userId: users.id, hash: accounts.password })
    .from(users)
    .innerJoin(accounts, and(eq(accounts.userId, users.id), eq(accounts.providerId, CREDENTIAL)))
    .where(and(eq(users.email, email.toLowerCase()), eq(users.emailVerified, false)))
    .limit(1);
  return row;
}

/**
 * Gives the unconfirmed account `userId` the password of the newest sign-up with its address (no session exists
 * before a confirmation). Only while the account is unconfirmed, in the same statement: a sign-up that read the
 * account just before its owner confirmed it cannot change the confirmed account's password. Answers whether it
 * changed one.
 */
export async function startUnconfirmedAccountOver(db: Db, userId: string, password: string): Promise<boolean> {
  const changed = await db
    .update(accounts)
    .set({ password: await hashPassword(password), updatedAt: new Date() })
    .where(
      and(
        eq(accounts.userId, userId),
        eq(accounts.providerId, CREDENTIAL),
        exists(
          db
            .select({ id: users.id })
            .from(users)
            .where(and(eq(users.id, userId), eq(users.emailVerified, false))),
        ),
      ),
    )
    .returning({ id: accounts.id });
  return changed.length > 0;
}

/**
 * What a confirmation's password says: `wrong` when it is not the one the token's unconfirmed account was signed up
 * with (refuse); `matched` with the account when it is; `notJudged` for a token that is not valid (forged, expired) or
 * whose account is confirmed already or has no password login: better-auth refuses or accepts it in its own words,
 * and a forged token learns nothing of any password.
 */
export async function checkSignUpPassword(
  db: Db,
  secret: string,
  token: string,
  password: string,
): Promise<{ outcome: 'wrong' | 'notJudged' } | { outcome: 'matched'; userId: string }> {
  const claims = await verifyJWT<{ email?: unknown; updateTo?: unknown }>(token, secret);
  if (!claims || typeof claims.email !== 'string' || claims.updateTo !== undefined) return { outcome: 'notJudged' };
  const login = await unconfirmedLogin(db, claims.email);
  if (!login?.hash) return { outcome: 'notJudged' };
  if (!(await verifyPassword({ hash: login.hash, password }))) return { outcome: 'wrong' };
  return { outcome: 'matched', userId: login.userId };
}

/**
 * Once the address is confirmed: the password is the one the confirming person typed (and which matched a moment
 * before), whatever a sign-up changed between the check and the confirmation (a stranger's, which would otherwise have
 * put the stranger's password on the newly confirmed account). Only a confirmation whose password matched calls it.
 */
export async function keepConfirmingPassword(db: Db, userId: string, password: string): Promise<void> {
  await db
    .update(accounts)
    .set({ password: await hashPassword(password), updatedAt: new Date() })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, CREDENTIAL)));
}
