import { type ProductId, proxyAddress } from '@storefront/contract';
import { and, asc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { ipReplacements, orders, proxyIps, users } from '../../db/schema.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { replacementsDoneEmail } from '../notifications/customer-emails.ts';
import { enqueueEmail } from '../notifications/outbox.ts';

/** A free IP claimed for a replacement, in the pool's order (oldest first). */
export interface ClaimedIp {
  id: string;
  address: string;
  subnet: string;
}

/**
 * The subnets whose burnt IPs this customer gave back by replacing them and that have not been swapped since: a
 * target that blocked one address of a /24 often blocks the rest, so none of them is handed to the same customer again.
 */
export async function burntSubnetsOf(tx: Tx, userId: string, productId: string): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ subnet: proxyIps.subnet })
    .from(ipReplacements)
    .innerJoin(proxyIps, eq(proxyIps.id, ipReplacements.oldIpId))
    .where(
      and(
        eq(ipReplacements.userId, userId),
        eq(ipReplacements.productId, productId as never),
        eq(ipReplacements.status, 'done'),
        eq(proxyIps.needRotated, true),
      ),
    );
  return rows.map((row) => row.subnet);
}

/**
 * Claims up to `count` free IPs of the pool for an order, oldest first (the delivery's order), outside `excluded`
 * subnets, skipping rows another transaction holds (FOR UPDATE SKIP LOCKED). Answers them oldest first.
 */
export async function claimFreeIps(
  tx: Tx,
  { productId, orderId, count, excluded }: { productId: string; orderId: string; count: number; excluded: string[] },
): Promise<ClaimedIp[]> {
  if (count <= 0) return [];
  const free = tx
    .select({ id: proxyIps.id })
    .from(proxyIps)
    .where(
      and(
        eq(proxyIps.productId, productId as never),
        isNull(proxyIps.assignedOrderId),
        eq(proxyIps.needRotated, false),
        excluded.length > 0 ? notInArray(proxyIps.subnet, excluded) : undefined,
      ),
    )
    .orderBy(asc(proxyIps.createdAt), asc(proxyIps.id))
    .limit(count)
    .for('update', { skipLocked: true });
  const claimed = await tx
    .update(proxyIps)
    .set({ assignedOrderId: orderId })
    .where(inArray(proxyIps.id, free))
    .returning({
      id: proxyIps.id,
      ip: proxyIps.ip,
      port: proxyIps.port,
      subnet: proxyIps.subnet,
      createdAt: proxyIps.createdAt,
    });
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  return claimed.map((row) => ({ id: row.id, address: proxyAddress(row.ip, row.port), subnet: row.subnet }));
}

/** How many free IPs the pool has outside `excluded`, counted up to `limit` (the preview's "at once"). */
export async function freeIpsUpTo(
  tx: Tx,
  { productId, limit, excluded }: { productId: string; limit: number; excluded: string[] },
): Promise<number> {
  if (limit <= 0) return 0;
  const rows = await tx
    .select({ id: proxyIps.id })
    .from(proxyIps)
    .where(
      and(
        eq(proxyIps.productId, productId as never),
        isNull(proxyIps.assignedOrderId),
        eq(proxyIps.needRotated, false),
        excluded.length > 0 ? notInArray(proxyIps.subnet, excluded) : undefined,
      ),
    )
    .orderBy(asc(proxyIps.createdAt), asc(proxyIps.id))
    .limit(limit);
  return rows.length;
}

/** The old IPs leave their order burnt: they wait for their subnet's swap, as an ended order's IPs do. */
export async function burnReplaced(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.update(proxyIps).set({ assignedOrderId: null, needRotated: true }).where(inArray(proxyIps.id, ids));
}

/**
 * Makes the product's replacements that wait for stock, oldest first, inside the caller's transaction (every addition
 * of stock calls it, before the waiting orders: a replacement restores an IP the customer already pays for). One whose
 * order ended, or whose IP left the order, is void. One whose order another transaction holds, or that the pool cannot
 * serve outside its customer's burnt subnets, waits on; it stops when the pool is empty. Answers how many were made.
 */
export async function deliverWaitingReplacements(tx: Tx, brand: Branding, productId: ProductId): Promise<number> {
  const waiting = await tx
    .select({
      id: ipReplacements.id,
      orderId: ipReplacements.orderId,
      userId: ipReplacements.userId,
      oldIpId: ipReplacements.oldIpId,
      oldAddress: ipReplacements.oldAddress,
    })
    .from(ipReplacements)
    .where(and(eq(ipReplacements.productId, productId as never), eq(ipReplacements.status, 'waiting')))
    .orderBy(asc(ipReplacements.requestedAt), asc(ipReplacements.id))
    .for('update', { skipLocked: true });
  const madeByOrder = new Map<
    string,
    { userId: string; firstId: string; replaced: { oldIp: string; newIp: string }[] }
  >();
  let made = 0;
  for (const replacement of waiting) {
    // The order's row, as the customer's own replacement takes it first; one held elsewhere is left for next time.
    const [order] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, replacement.orderId))
      .for('update', { skipLocked: true });
    if (!order) continue;
    const [old] = await tx
      .select({ assignedOrderId: proxyIps.assignedOrderId, subnet: proxyIps.subnet })
      .from(proxyIps)
      .where(eq(proxyIps.id, replacement.oldIpId))
      .for('update');
    if (order.status !== 'delivered' || old?.assignedOrderId !== replacement.orderId) {
      await tx.update(ipReplacements).set({ status: 'void' }).where(eq(ipReplacements.id, replacement.id));
      continue;
    }
    const excluded = [old.subnet, ...(await burntSubnetsOf(tx, replacement.userId, productId))];
    const [fresh] = await claimFreeIps(tx, { productId, orderId: replacement.orderId, count: 1, excluded });
    if (!fresh) {
      if ((await freeIpsUpTo(tx, { productId, limit: 1, excluded: [] })) === 0) break;
      continue;
    }
    await burnReplaced(tx, [replacement.oldIpId]);
    await tx
      .update(ipReplacements)
      .set({ status: 'done', newIpId: fresh.id, newAddress: fresh.address, doneAt: sql`now()` })
      .where(eq(ipReplacements.id, replacement.id));
    const done = madeByOrder.get(replacement.orderId) ?? {
      userId: replacement.userId,
      firstId: replacement.id,
      replaced: [],
    };
    done.replaced.push({ oldIp: replacement.oldAddress, newIp: fresh.address });
    madeByOrder.set(replacement.orderId, done);
    made += 1;
  }
  // One e-mail per order for what this addition of stock made, in the same transaction (the outbox sends it).
  for (const [orderId, done] of madeByOrder) {
    const [row] = await tx
      .select({ email: users.email, quantity: orders.quantity })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(orders.id, orderId));
    if (!row) continue;
    await enqueueEmail(
      tx,
      `replacements-done:${done.firstId}`,
      replacementsDoneEmail(brand, row.email, { orderId, productId, quantity: row.quantity }, done.replaced),
    );
  }
  return made;
}
