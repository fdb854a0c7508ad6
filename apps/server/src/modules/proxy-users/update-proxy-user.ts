import { randomUUID } from 'node:crypto';
import { type ProxyUser, proxyUserMessages } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proxyUserAllowanceChanges, proxyUsers } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import {
  type AllowanceState,
  accountOf,
  allowanceOf,
  checkNameFree,
  ipsOf,
  nextPeriod,
  ownedProxyUser,
  replaceIps,
  toProxyUser,
} from './proxy-user-rows.ts';

export interface ProxyUserChange {
  name?: string | undefined;
  note?: string | null | undefined;
  paused?: boolean | undefined;
  allowance?: AllowanceState | undefined;
  countries?: string[] | undefined;
  maxConnections?: number | null | undefined;
  /** Checked and in one spelling (customer-settings/authorized-ips.ts checkedIps). */
  authorizedIps?: string[] | undefined;
}

const sameAllowance = (a: AllowanceState, b: AllowanceState) =>
  a.type === b.type && a.limitInKb === b.limitInKb && a.resetDay === b.resetDay;

/**
 * Changes what is given of one of the customer's proxy users, in one transaction. A new allowance is refused below what
 * the proxy user used in the period it would count (a monthly cap on a new reset day counts from now), and is written
 * to its history with who made it. The account's row is locked first, as creation does, so a rename cannot race
 * another creation or rename to the same name.
 */
export async function updateProxyUser({
  db,
  userId,
  changedBy,
  id,
  change,
}: {
  db: Db;
  userId: string;
  changedBy: string;
  id: string;
  change: ProxyUserChange;
}): Promise<ProxyUser> {
  return db.transaction(async (tx) => {
    const account = await accountOf(tx, userId, true);
    const { row } = await ownedProxyUser(tx, userId, id);
    const set: Partial<typeof proxyUsers.$inferInsert> = { updatedAt: new Date() };
    if (change.name !== undefined && change.name !== row.name) {
      await checkNameFree(tx, userId, change.name, id);
      set.name = change.name;
    }
    if (change.note !== undefined) set.note = change.note?.trim() ? change.note.trim() : null;
    if (change.paused !== undefined) set.paused = change.paused;
    if (change.countries !== undefined) set.countries = [...new Set(change.countries)];
    if (change.maxConnections !== undefined) set.maxConnections = change.maxConnections;
    const from = allowanceOf(row);
    const to = change.allowance;
    if (to !== undefined && !sameAllowance(from, to)) {
      const period = await nextPeriod(tx, row, to);
      if (to.limitInKb !== null && to.limitInKb < period.used)
        throw new AppError('BAD_REQUEST', proxyUserMessages.capBelowUsed(period.used));
      Object.assign(set, {
        allowance: to.type,
        allowanceKb: to.limitInKb,
        resetDay: to.resetDay,
        periodStart: period.periodStart,
        periodUsedKb: period.periodUsedKb,
      });
      await tx.insert(proxyUserAllowanceChanges).values({
        id: randomUUID(),
        proxyUserId: id,
        changedAt: new Date(),
        changedBy,
        fromAllowance: from.type,
        fromKb: from.limitInKb,
        fromResetDay: from.resetDay,
        toAllowance: to.type,
        toKb: to.limitInKb,
        toResetDay: to.resetDay,
      });
    }
    await tx.update(proxyUsers).set(set).where(eq(proxyUsers.id, id));
    if (change.authorizedIps !== undefined) await replaceIps(tx, userId, id, change.authorizedIps);
    const updated = await ownedProxyUser(tx, userId, id);
    const ips = await ipsOf(tx, [id]);
    return toProxyUser(account.username, updated, ips.get(id) ?? []);
  });
}
