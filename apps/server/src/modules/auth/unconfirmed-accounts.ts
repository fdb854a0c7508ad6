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
 * Gives the unconfirmed account `userId` the password of the newest sign-up with its address (one statement; no
 * session exists before a confirmation). Answers whether there was such an account to change.
 */
export async function startUnconfirmedAccountOver(db: Db, userId: string, password: string): Promise<boolean> {
  const changed = await db
    .update(accounts)
    .set({ password: await hashPassword(password), updatedAt: new Date() })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, CREDENTIAL)))
    .returning({ id: accounts.id });
  return changed.length > 0;
}

/**
 * Whether a confirmation must be refused because `password` is not the one the token's unconfirmed account was signed
 * up with. A token that is not valid (forged, expired) or whose account is confirmed already or has no password login
 * is not judged here: better-auth refuses or accepts it in its own words, and a forged token learns nothing of any
 * password.
 */
export async function isWrongSignUpPassword(db: Db, secret: string, token: string, password: string) {
  const claims = await verifyJWT<{ email?: unknown; updateTo?: unknown }>(token, secret);
  if (!claims || typeof claims.email !== 'string' || claims.updateTo !== undefined) return false;
  const login = await unconfirmedLogin(db, claims.email);
  if (!login?.hash) return false;
  return !(await verifyPassword({ hash: login.hash, password }));
}
