import { randomUUID } from 'node:crypto';
import { type CreatedProxyUser, PROXY_USERS_MAX, proxyUserMessages } from '@storefront/contract';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proxyUserAllowanceChanges, proxyUsers } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import {
  type AllowanceState,
  accountOf,
  checkNameFree,
  currentPeriodStart,
  generatePassword,
  replaceIps,
  toProxyUser,
} from './proxy-user-rows.ts';

export interface NewProxyUser {
  name: string;
  password?: string | undefined;
  note?: string | null | undefined;
  allowance?: AllowanceState | undefined;
  countries?: string[] | undefined;
  maxConnections?: number | null | undefined;
  /** Checked and in one spelling (customer-settings/authorized-ips.ts checkedIps). */
  authorizedIps?: string[] | undefined;
}

/**
 * Creates a proxy user and answers it with its password (generated when none is given). The account's row is locked
 * while the live proxy users are counted and the name is checked, so two creations at once cannot both take the last
 * place or the same name. A cap given at creation is the first entry of its history.
 */
export async function createProxyUser({
  db,
  userId,
  changedBy,
  input,
}: {
  db: Db;
  userId: string;
  changedBy: string;
  input: NewProxyUser;
}): Promise<CreatedProxyUser> {
  return db.transaction(async (tx) => {
    const account = await accountOf(tx, userId, true);
    const [live] = await tx
      .select({ n: count() })
      .from(proxyUsers)
      .where(and(eq(proxyUsers.userId, userId), isNull(proxyUsers.deletedAt)));
    if (Number(live?.n ?? 0) >= PROXY_USERS_MAX) throw new AppError('CONFLICT', proxyUserMessages.limitReached);
    await checkNameFree(tx, userId, input.name);
    const allowance = input.allowance ?? { type: 'none', limitInKb: null, resetDay: null };
    const password = input.password ?? generatePassword();
    const id = randomUUID();
    const [row] = await tx
      .insert(proxyUsers)
      .values({
        id,
        userId,
        name: input.name,
        password,
        note: input.note?.trim() ? input.note.trim() : null,
        allowance: allowance.type,
        allowanceKb: allowance.limitInKb,
        resetDay: allowance.resetDay,
        periodStart: allowance.resetDay === null ? null : await currentPeriodStart(tx, allowance.resetDay),
        countries: [...new Set(input.countries ?? [])],
        maxConnections: input.maxConnections ?? null,
      })
      .returning();
    if (!row) throw new Error('the proxy user was not written');
    if (allowance.type !== 'none') {
      await tx.insert(proxyUserAllowanceChanges).values({
        id: randomUUID(),
        proxyUserId: id,
        changedAt: new Date(),
        changedBy,
        fromAllowance: 'none',
        toAllowance: allowance.type,
        toKb: allowance.limitInKb,
        toResetDay: allowance.resetDay,
      });
    }
    const ips = await replaceIps(tx, userId, id, input.authorizedIps ?? []);
    return { ...toProxyUser(account.username, { row, currentStart: row.periodStart }, ips), password };
  });
}
