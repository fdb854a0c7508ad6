import {
  PRODUCTS,
  type ReplacementAllowance,
  type ReplacementRequest,
  replacementAllowance,
  replacementMessages,
} from '@storefront/contract';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { ipReplacements, orders, proxyIps } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

export type OrderRow = typeof orders.$inferSelect;

/** The customer's own paid order, locked when `lock` (the replacement's one lock); anyone else's is a 404. */
export async function ownOrder(tx: Tx, { userId, orderId, lock }: { userId: string; orderId: string; lock: boolean }) {
  const query = tx
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId), ne(orders.status, 'awaiting_payment')));
  const [order] = await (lock ? query.for('update') : query);
  if (!order) throw new AppError('NOT_FOUND', replacementMessages.notFound);
  if (PRODUCTS[order.productId].unit === 'gb') throw new AppError('CONFLICT', replacementMessages.notStatic);
  return order;
}

/** The order's allowance in its billing period: the period is named by the order's expiry, which a renewal moves. */
export async function allowanceOf(tx: Tx, order: OrderRow, percent: number): Promise<ReplacementAllowance> {
  const limit = replacementAllowance(order.quantity, percent);
  const [row] = order.expiresAt
    ? await tx
        .select({ used: count() })
        .from(ipReplacements)
        .where(and(eq(ipReplacements.orderId, order.id), eq(ipReplacements.periodEnd, order.expiresAt)))
    : [{ used: 0 }];
  const used = Number(row?.used ?? 0);
  return {
    percent,
    limit,
    used,
    left: Math.max(0, limit - used),
    periodEnd: order.expiresAt?.toISOString() ?? null,
  };
}

/** The checks a replacement and its preview share: an active order, replacements on, within the allowance. */
export function checkReplaceable(order: OrderRow, allowance: ReplacementAllowance, asked: number, now: Date) {
  if (order.status !== 'delivered' || !order.expiresAt || order.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('CONFLICT', replacementMessages.notActive);
  }
  if (allowance.percent === 0) throw new AppError('CONFLICT', replacementMessages.turnedOff);
  return asked <= allowance.left;
}

/**
 * The order's IPs the request names, in address order (locked with the order's row when `lock`); an address the order
 * does not hold is a 400 naming it, whoever holds it, and one already waiting for its replacement a 409.
 */
export async function namedIps(tx: Tx, order: OrderRow, request: ReplacementRequest, lock: boolean) {
  const pairs = request.ips.map((address) => {
    const at = address.lastIndexOf(':');
    return { ip: address.slice(0, at), port: Number(address.slice(at + 1)) };
  });
  const query = tx
    .select({ id: proxyIps.id, ip: proxyIps.ip, port: proxyIps.port, subnet: proxyIps.subnet })
    .from(proxyIps)
    .where(
      and(
        eq(proxyIps.assignedOrderId, order.id),
        sql`(${proxyIps.ip}, ${proxyIps.port}) in (${sql.join(
          pairs.map((pair) => sql`(${pair.ip}, ${pair.port}::int)`),
          sql`, `,
        )})`,
      ),
    )
    .orderBy(sql`${proxyIps.ip}::inet`, asc(proxyIps.port));
  const rows = await (lock ? query.for('update') : query);
  const found = new Set(rows.map((row) => `${row.ip}:${row.port}`));
  const missing = request.ips.filter((address) => !found.has(address));
  if (missing.length > 0) throw new AppError('BAD_REQUEST', replacementMessages.notInOrder(missing));
  const waiting = await tx
    .select({ address: ipReplacements.oldAddress })
    .from(ipReplacements)
    .where(
      and(
        inArray(
          ipReplacements.oldIpId,
          rows.map((row) => row.id),
        ),
        eq(ipReplacements.status, 'waiting'),
      ),
    );
  if (waiting.length > 0) {
    throw new AppError('CONFLICT', replacementMessages.alreadyWaiting(waiting.map((row) => row.address)));
  }
  return rows.map((row) => ({ id: row.id, address: `${row.ip}:${row.port}`, subnet: row.subnet }));
}
