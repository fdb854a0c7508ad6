import { AUTHORIZED_IPS_MAX, type AuthorizedIps, authorizedIpMessages, proxyUserMessages } from '@storefront/contract';
import { and, asc, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authorizedIps, customerPreferences } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { canonicalIp } from '../../lib/ip-address.ts';
import { isRefusedAddress } from '../../lib/public-address.ts';

/** The main user's authorised IPs (proxy users have their own, modules/proxy-users) and "only from these IPs". */
export async function readAuthorizedIps(db: Db, userId: string): Promise<Omit<AuthorizedIps, 'currentIp'>> {
  const [rows, [preferences]] = await Promise.all([
    db
      .select({ ip: authorizedIps.ip })
      .from(authorizedIps)
      .where(and(eq(authorizedIps.userId, userId), isNull(authorizedIps.proxyUserId)))
      .orderBy(asc(authorizedIps.ip)),
    db
      .select({ onlyFromTheseIps: customerPreferences.authorizedIpsOnly })
      .from(customerPreferences)
      .where(eq(customerPreferences.userId, userId)),
  ]);
  return { ips: rows.map((row) => row.ip), onlyFromTheseIps: preferences?.onlyFromTheseIps ?? false };
}

/**
 * Checks every address as the gateway will compare it (one spelling per address: `::ffff:a.b.c.d` is a.b.c.d, IPv6 in
 * its short form), refusing anything but a single public address unless the gateway may see private ones
 * (GATEWAY_ALLOW_PRIVATE). Repeats are kept once.
 */
export function checkedIps(values: readonly string[], allowPrivate: boolean): string[] {
  const ips: string[] = [];
  for (const value of values) {
    const ip = canonicalIp(value);
    if (ip === undefined) throw new AppError('BAD_REQUEST', authorizedIpMessages.notAnAddress(value.trim()));
    if (!allowPrivate && isRefusedAddress(ip)) throw new AppError('BAD_REQUEST', authorizedIpMessages.notPublic(ip));
    if (!ips.includes(ip)) ips.push(ip);
  }
  if (ips.length > AUTHORIZED_IPS_MAX) throw new AppError('BAD_REQUEST', authorizedIpMessages.tooMany);
  return ips;
}

/**
 * Replaces the main user's list (and the switch, when given) in one transaction, leaving the proxy users' addresses as
 * they are. An address another customer or one of the customer's proxy users holds answers 409 and changes nothing:
 * the primary key on the address settles two customers adding it at once.
 */
export async function saveAuthorizedIps({
  db,
  userId,
  ips,
  onlyFromTheseIps,
}: {
  db: Db;
  userId: string;
  ips: string[];
  onlyFromTheseIps: boolean | undefined;
}): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ only: customerPreferences.authorizedIpsOnly })
      .from(customerPreferences)
      .where(eq(customerPreferences.userId, userId));
    const only = onlyFromTheseIps ?? current?.only ?? false;
    if (only && ips.length === 0) throw new AppError('BAD_REQUEST', authorizedIpMessages.onlyWithoutIps);
    const mainUser = and(eq(authorizedIps.userId, userId), isNull(authorizedIps.proxyUserId));
    await tx.delete(authorizedIps).where(ips.length > 0 ? and(mainUser, notInArray(authorizedIps.ip, ips)) : mainUser);
    if (ips.length > 0) {
      await tx
        .insert(authorizedIps)
        .values(ips.map((ip) => ({ ip, userId })))
        .onConflictDoNothing({ target: authorizedIps.ip });
      const holders = await tx
        .select({ ip: authorizedIps.ip, userId: authorizedIps.userId, proxyUserId: authorizedIps.proxyUserId })
        .from(authorizedIps)
        .where(inArray(authorizedIps.ip, ips));
      for (const ip of ips) {
        const holder = holders.find((row) => row.ip === ip);
        if (holder?.userId === userId && holder.proxyUserId === null) continue;
        throw new AppError(
          'CONFLICT',
          holder?.userId === userId ? proxyUserMessages.ipTaken(ip) : authorizedIpMessages.taken(ip),
        );
      }
    }
    if (onlyFromTheseIps !== undefined) {
      await tx
        .insert(customerPreferences)
        .values({ userId, authorizedIpsOnly: onlyFromTheseIps })
        .onConflictDoUpdate({
          target: customerPreferences.userId,
          set: { authorizedIpsOnly: onlyFromTheseIps, updatedAt: new Date() },
        });
    }
  });
}
