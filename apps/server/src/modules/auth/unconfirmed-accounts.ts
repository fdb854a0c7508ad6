// An address's account before it is confirmed belongs to nobody yet: anyone can sign up with any address. Two rules keep
// a stranger who signed up first with somebody else's address (account pre-hijacking) from ever holding that account:
//  - a new sign-up with the address starts the unconfirmed account over with the new sign-up's password (and mails a
//    fresh link), so the address's owner can always take the account back by signing up themselves;
//  - confirming takes the password the account was signed up with, as well as the mailed token, so only a person who
//    holds both the mailbox and the password ends up with a confirmed account (the owner does not know a stranger's).

import { hashPassword, verifyJWT, verifyPassword } from 'better-auth/crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, users } from '../../db/schema.ts';

/** better-auth's provider id of an e-mail and password login. */
const CREDENTIAL = 'credential';

/** The unconfirmed account of `email` and its password's hash (null without a password login), if there is one. */
async function unconfirmedLogin(db: Db, email: string) {
  const [row] = await db
    .select({ userId: users.id, hash: accounts.password })
    .from(users)
    .leftJoin(accounts, and(eq(accounts.userId, users.id), eq(accounts.providerId, CREDENTIAL)))
    .where(and(eq(users.email, email.toLowerCase()), eq(users.emailVerified, false)))
    .limit(1);
  return row;
}

/** A fresh confirmation link for a started-over account is mailed at most this often (a stranger's sign-ups flood). */
export const RESEND_AFTER_MS = 60_000;

/**
 * Gives the unconfirmed account `userId` the password and name of the newest sign-up with its address (no session
 * exists before a confirmation), in one transaction and only while the account is unconfirmed: a sign-up that read
 * the account just before its owner confirmed it cannot change the confirmed account. Answers whether it changed it,
 * and whether a fresh link is due (none was due for the last minute).
 */
export async function startUnconfirmedAccountOver(
  db: Db,
  userId: string,
  signUp: { password: string; name: string },
): Promise<{ changed: boolean; mail: boolean }> {
  const hash = await hashPassword(signUp.password);
  return db.transaction(async (tx) => {
    const unconfirmed = and(eq(users.id, userId), eq(users.emailVerified, false));
    const [user] = await tx
      .update(users)
      .set({ name: signUp.name, image: null, updatedAt: new Date() })
      .where(unconfirmed)
      .returning({ id: users.id });
    if (!user) return { changed: false, mail: false };
    const login = and(eq(accounts.userId, userId), eq(accounts.providerId, CREDENTIAL));
    const [before] = await tx.select({ updatedAt: accounts.updatedAt }).from(accounts).where(login).for('update');
    if (!before) return { changed: false, mail: false };
    await tx.update(accounts).set({ password: hash, updatedAt: new Date() }).where(login);
    return { changed: true, mail: Date.now() - before.updatedAt.getTime() >= RESEND_AFTER_MS };
  });
}

/**
 * What a confirmation's password says: `wrong` when it is not the one the token's unconfirmed account was signed up
 * with, or the unconfirmed account has no password at all (refuse); `matched`, with the account and the hash that
 * matched, when it is; `notJudged` for a token that is not valid (forged, expired) or whose account is confirmed
 * already: better-auth refuses or accepts it in its own words, and a forged token learns nothing of any password.
 */
export async function checkSignUpPassword(
  db: Db,
  secret: string,
  token: string,
  password: string,
): Promise<{ outcome: 'wrong' | 'notJudged' } | { outcome: 'matched'; userId: string; hash: string }> {
  const claims = await verifyJWT<{ email?: unknown; updateTo?: unknown }>(token, secret);
  if (!claims || typeof claims.email !== 'string' || claims.updateTo !== undefined) return { outcome: 'notJudged' };
  const login = await unconfirmedLogin(db, claims.email);
  if (!login) return { outcome: 'notJudged' };
  if (!login.hash || !(await verifyPassword({ hash: login.hash, password }))) return { outcome: 'wrong' };
  return { outcome: 'matched', userId: login.userId, hash: login.hash };
}

/**
 * Once the address is confirmed: the password is the one the confirming person typed (the hash that matched a moment
 * before, written back as it is), whatever a sign-up changed between the check and the confirmation (a stranger's,
 * which would otherwise have put the stranger's password on the newly confirmed account). Only a confirmation whose
 * password matched calls it.
 */
export async function keepConfirmingPassword(db: Db, userId: string, hash: string): Promise<void> {
  await db
    .update(accounts)
    .set({ password: hash, updatedAt: new Date() })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, CREDENTIAL)));
}
