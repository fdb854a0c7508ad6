import { randomInt } from 'node:crypto';
import {
  authorizedIpMessages,
  PROXY_USER_GENERATED_PASSWORD_LENGTH,
  type ProxyUser,
  proxyUserMessages,
  proxyUserUsername,
} from '@storefront/contract';
import { and, asc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { authorizedIps, proxyUsers, residentialAccounts } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

export type AllowanceState = { type: 'none' | 'total' | 'monthly'; limitInKb: number | null; resetDay: number | null };

const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new password: letters and digits from a cryptographic source (62 choices a character, without bias). */
export function generatePassword(): string {
  let password = '';
  for (let i = 0; i < PROXY_USER_GENERATED_PASSWORD_LENGTH; i++)
    password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

/** The first day of the monthly period `resetDay` is in now, as the gateway reckons it (the same SQL function). */
export async function currentPeriodStart(tx: Tx | Db, resetDay: number): Promise<string> {
  const result = (await tx.execute(
    sql`select proxy_user_period_start(${resetDay}::integer, now())::text as start`,
  )) as {
    rows: { start: string }[];
  };
  const start = result.rows[0]?.start;
  if (!start) throw new Error('proxy_user_period_start answered nothing');
  return start;
}

/** A row with the start of the monthly period it is in now (null without a monthly allowance). */
export const rowColumns = {
  row: proxyUsers,
  currentStart: sql<
    string | null
  >`case when ${proxyUsers.resetDay} is null then null else proxy_user_period_start(${proxyUsers.resetDay}, now())::text end`,
};

type Row = typeof proxyUsers.$inferSelect;

/** What its allowance counts now: everything for a total cap, this period's for a monthly one (0 in a new period). */
export function usedThisPeriod(row: Row, currentStart: string | null): number {
  if (row.allowance === 'monthly')
    return row.periodStart !== null && row.periodStart === currentStart ? row.periodUsedKb : 0;
  return row.usedKb;
}

export function allowanceOf(row: Pick<Row, 'allowance' | 'allowanceKb' | 'resetDay'>): AllowanceState {
  return { type: row.allowance, limitInKb: row.allowanceKb, resetDay: row.resetDay };
}

export function toProxyUser(
  accountUsername: string,
  { row, currentStart }: { row: Row; currentStart: string | null },
  ips: readonly string[],
): ProxyUser {
  return {
    id: row.id,
    name: row.name,
    username: proxyUserUsername(accountUsername, row.name),
    note: row.note,
    paused: row.paused,
    allowance: allowanceOf(row),
    usedInKb: row.usedKb,
    periodUsedInKb: usedThisPeriod(row, currentStart),
    periodStart: row.allowance === 'monthly' ? currentStart : null,
    countries: row.countries,
    maxConnections: row.maxConnections,
    authorizedIps: [...ips],
    createdAt: row.createdAt.toISOString(),
  };
}

/** The customer's residential account (locked when `lock`); 404 in words without residential data. */
export async function accountOf(tx: Tx | Db, userId: string, lock = false): Promise<{ username: string }> {
  const query = tx
    .select({ username: residentialAccounts.username })
    .from(residentialAccounts)
    .where(eq(residentialAccounts.userId, userId));
  const [account] = lock ? await query.for('update') : await query;
  if (!account) throw new AppError('NOT_FOUND', proxyUserMessages.noResidentialData);
  return account;
}

/** One of the customer's live proxy users, locked; 404 for anyone else's, a deleted one or an unknown id. */
export async function ownedProxyUser(tx: Tx, userId: string, id: string) {
  const [found] = await tx
    .select(rowColumns)
    .from(proxyUsers)
    .where(and(eq(proxyUsers.id, id), eq(proxyUsers.userId, userId), isNull(proxyUsers.deletedAt)))
    .for('update', { of: proxyUsers });
  if (!found) throw new AppError('NOT_FOUND', proxyUserMessages.notFound);
  return found;
}

/** The authorised IPs of these proxy users, by proxy user. */
export async function ipsOf(tx: Tx | Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  const byUser = new Map<string, string[]>();
  if (ids.length === 0) return byUser;
  const rows = await tx
    .select({ ip: authorizedIps.ip, proxyUserId: authorizedIps.proxyUserId })
    .from(authorizedIps)
    .where(inArray(authorizedIps.proxyUserId, [...ids]))
    .orderBy(asc(authorizedIps.ip));
  for (const row of rows) {
    if (!row.proxyUserId) continue;
    byUser.set(row.proxyUserId, [...(byUser.get(row.proxyUserId) ?? []), row.ip]);
  }
  return byUser;
}

/** Refuses a name the account's live proxy users already have (the account's row is locked by the caller). */
export async function checkNameFree(tx: Tx, userId: string, name: string, exceptId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: proxyUsers.id })
    .from(proxyUsers)
    .where(and(eq(proxyUsers.userId, userId), eq(proxyUsers.name, name), isNull(proxyUsers.deletedAt)));
  if (taken && taken.id !== exceptId) throw new AppError('CONFLICT', proxyUserMessages.nameTaken(name));
}

/**
 * Replaces a proxy user's authorised IPs (already checked and in one spelling). An address held by anyone else, the
 * main user or another proxy user of the same customer included, answers 409 in words: the address is the key.
 */
export async function replaceIps(
  tx: Tx,
  userId: string,
  proxyUserId: string,
  ips: readonly string[],
): Promise<string[]> {
  await tx
    .delete(authorizedIps)
    .where(
      ips.length > 0
        ? and(eq(authorizedIps.proxyUserId, proxyUserId), notInArray(authorizedIps.ip, [...ips]))
        : eq(authorizedIps.proxyUserId, proxyUserId),
    );
  if (ips.length === 0) return [];
  await tx
    .insert(authorizedIps)
    .values(ips.map((ip) => ({ ip, userId, proxyUserId })))
    .onConflictDoNothing({ target: authorizedIps.ip });
  const holders = await tx
    .select({ ip: authorizedIps.ip, userId: authorizedIps.userId, proxyUserId: authorizedIps.proxyUserId })
    .from(authorizedIps)
    .where(inArray(authorizedIps.ip, [...ips]));
  for (const ip of ips) {
    const holder = holders.find((row) => row.ip === ip);
    if (holder?.proxyUserId === proxyUserId) continue;
    throw new AppError(
      'CONFLICT',
      holder?.userId === userId ? proxyUserMessages.ipTaken(ip) : authorizedIpMessages.taken(ip),
    );
  }
  return [...ips].sort();
}

/**
 * Where a new allowance starts counting: a monthly one keeps its period's use when the period is the same (same reset
 * day, same period), else counts from now (0); a total one counts everything it carried.
 */
export async function nextPeriod(
  tx: Tx,
  row: Pick<Row, 'periodStart' | 'periodUsedKb' | 'usedKb'>,
  to: AllowanceState,
): Promise<{ periodStart: string | null; periodUsedKb: number; used: number }> {
  if (to.type !== 'monthly' || to.resetDay === null)
    return { periodStart: row.periodStart, periodUsedKb: row.periodUsedKb, used: row.usedKb };
  const start = await currentPeriodStart(tx, to.resetDay);
  if (row.periodStart === start) return { periodStart: start, periodUsedKb: row.periodUsedKb, used: row.periodUsedKb };
  return { periodStart: start, periodUsedKb: 0, used: 0 };
}
