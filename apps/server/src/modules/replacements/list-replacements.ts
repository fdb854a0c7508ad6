import { REPLACEMENTS_PAGE_SIZE, type ReplacementHistory } from '@storefront/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ipReplacements } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { allowanceOf, ownOrder } from './replaceable-order.ts';

/** A history position: the last entry's time and id, as `<ISO time>_<id>`. */
function positionOf(after: string | undefined): { at: Date; id: string } | undefined {
  if (after === undefined) return undefined;
  const [at = '', id = ''] = after.split('_');
  const time = new Date(at);
  if (Number.isNaN(time.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new AppError('BAD_REQUEST', 'after is the position a previous page gave as next.');
  }
  return { at: time, id };
}

/**
 * GET /api/orders/{id}/replacements: the order's replacements newest first, a page at a time by position, and its
 * allowance this billing period. The customer's own order only (a key's holder's, with an API key).
 */
export async function listReplacements({
  db,
  userId,
  orderId,
  after,
  percent,
}: {
  db: Db;
  userId: string;
  orderId: string;
  after?: string;
  percent: number;
}): Promise<ReplacementHistory> {
  const position = positionOf(after);
  return db.transaction(async (tx) => {
    const order = await ownOrder(tx, { userId, orderId, lock: false });
    const allowance = await allowanceOf(tx, order, percent);
    const rows = await tx
      .select()
      .from(ipReplacements)
      .where(
        and(
          eq(ipReplacements.orderId, order.id),
          position
            ? sql`(${ipReplacements.requestedAt}, ${ipReplacements.id}) < (${position.at.toISOString()}::timestamptz, ${position.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(desc(ipReplacements.requestedAt), desc(ipReplacements.id))
      .limit(REPLACEMENTS_PAGE_SIZE + 1);
    const page = rows.slice(0, REPLACEMENTS_PAGE_SIZE);
    const last = page.at(-1);
    // Few: a waiting replacement is within the period's allowance.
    const waiting = await tx
      .select({ ip: ipReplacements.oldAddress })
      .from(ipReplacements)
      .where(and(eq(ipReplacements.orderId, order.id), eq(ipReplacements.status, 'waiting')))
      .orderBy(ipReplacements.oldAddress);
    return {
      allowance,
      replacements: page.map((row) => ({
        id: row.id,
        requestedAt: row.requestedAt.toISOString(),
        reason: row.reason,
        status: row.status,
        oldIp: row.oldAddress,
        newIp: row.newAddress,
        doneAt: row.doneAt?.toISOString() ?? null,
      })),
      next: rows.length > REPLACEMENTS_PAGE_SIZE && last ? `${last.requestedAt.toISOString()}_${last.id}` : null,
      waitingIps: waiting.map((row) => row.ip),
    };
  });
}
