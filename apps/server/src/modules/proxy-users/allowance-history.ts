import { type AllowanceHistory, PROXY_USER_HISTORY_PAGE_SIZE, proxyUserMessages } from '@storefront/contract';
import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proxyUserAllowanceChanges, proxyUsers } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/**
 * A page of the changes of a live proxy user's allowance, newest first, by position (changed_at, id): the page after
 * `before`, and the position of the next one when there is more. Never counted whole.
 */
export async function listAllowanceChanges({
  db,
  userId,
  id,
  before,
}: {
  db: Db;
  userId: string;
  id: string;
  before: string | undefined;
}): Promise<AllowanceHistory> {
  const [owned] = await db
    .select({ id: proxyUsers.id })
    .from(proxyUsers)
    .where(and(eq(proxyUsers.id, id), eq(proxyUsers.userId, userId), isNull(proxyUsers.deletedAt)));
  if (!owned) throw new AppError('NOT_FOUND', proxyUserMessages.notFound);
  const [at, afterId] = before?.split('~') ?? [];
  // Changes are written with a time in milliseconds (the position's precision), so positions compare exactly.
  const changedAt = proxyUserAllowanceChanges.changedAt;
  const rows = await db
    .select()
    .from(proxyUserAllowanceChanges)
    .where(
      and(
        eq(proxyUserAllowanceChanges.proxyUserId, id),
        at && afterId
          ? or(lt(changedAt, new Date(at)), and(eq(changedAt, new Date(at)), lt(proxyUserAllowanceChanges.id, afterId)))
          : undefined,
      ),
    )
    .orderBy(desc(proxyUserAllowanceChanges.changedAt), desc(proxyUserAllowanceChanges.id))
    .limit(PROXY_USER_HISTORY_PAGE_SIZE + 1);
  const page = rows.slice(0, PROXY_USER_HISTORY_PAGE_SIZE);
  const last = page.at(-1);
  return {
    changes: page.map((row) => ({
      id: row.id,
      changedAt: row.changedAt.toISOString(),
      changedBy: row.changedBy,
      from: { type: row.fromAllowance, limitInKb: row.fromKb, resetDay: row.fromResetDay },
      to: { type: row.toAllowance, limitInKb: row.toKb, resetDay: row.toResetDay },
    })),
    next: rows.length > PROXY_USER_HISTORY_PAGE_SIZE && last ? `${last.changedAt.toISOString()}~${last.id}` : null,
  };
}
