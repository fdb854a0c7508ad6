import {
  type ProductId,
  type ReplacementReason,
  type ReplacementRequest,
  type ReplacementResult,
  replacementMessages,
} from '@storefront/contract';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { ipReplacementCounts, ipReplacementFlags, ipReplacementSubnets, ipReplacements } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { burnReplaced, burntSubnetsOf, claimFreeIps } from '../delivery/replacement-ips.ts';
import { allowanceOf, checkReplaceable, namedIps, ownOrder } from './replaceable-order.ts';

const REASON_COLUMN = { blocked: 'blocked', slow: 'slow', no_connect: 'no_connect', other: 'other' } as const;

/**
 * POST /api/orders/{id}/replacements: replaces the named IPs of the customer's active Elite ISP or PK1 order, in one
 * transaction that locks the order's row first, so parallel requests are counted one after another against the billing
 * period's allowance. Each IP, in address order, gets the oldest free IP of the pool outside the subnets of the IPs
 * replaced and of the customer's burnt ones; the old IP is burnt. With too few free IPs the rest wait for stock, each
 * keeping its old IP until then (deliverWaitingReplacements). The console's counts are kept in the same transaction.
 */
export async function replaceIps({
  db,
  userId,
  orderId,
  request,
  percent,
  now = new Date(),
}: {
  db: Db;
  userId: string;
  orderId: string;
  request: ReplacementRequest;
  percent: number;
  now?: Date;
}): Promise<ReplacementResult> {
  return db.transaction(async (tx) => {
    const order = await ownOrder(tx, { userId, orderId, lock: true });
    const allowance = await allowanceOf(tx, order, percent);
    if (!checkReplaceable(order, allowance, request.ips.length, now)) {
      throw new AppError(
        'CONFLICT',
        replacementMessages.overAllowance(request.ips.length, allowance.left, allowance.limit),
      );
    }
    const old = await namedIps(tx, order, request, true);
    const excluded = [
      ...new Set([...old.map((ip) => ip.subnet), ...(await burntSubnetsOf(tx, userId, order.productId))]),
    ];
    const fresh = await claimFreeIps(tx, {
      productId: order.productId,
      orderId: order.id,
      count: old.length,
      excluded,
    });
    await burnReplaced(
      tx,
      old.slice(0, fresh.length).map((ip) => ip.id),
    );
    const periodEnd = order.expiresAt ?? now;
    await tx.insert(ipReplacements).values(
      old.map((ip, index) => {
        const given = fresh[index];
        return {
          orderId: order.id,
          userId,
          productId: order.productId,
          reason: request.reason,
          status: given ? ('done' as const) : ('waiting' as const),
          oldIpId: ip.id,
          oldAddress: ip.address,
          oldSubnet: ip.subnet,
          newIpId: given?.id ?? null,
          newAddress: given?.address ?? null,
          periodEnd,
          requestedAt: now,
          doneAt: given ? now : null,
        };
      }),
    );
    await countReplacements(tx, {
      productId: order.productId,
      userId,
      reason: request.reason,
      subnets: old.map((ip) => ip.subnet),
      now,
    });
    const replaced = fresh.map((ip, index) => ({ oldIp: old[index]?.address ?? '', newIp: ip.address }));
    const waiting = old.slice(fresh.length).map((ip) => ip.address);
    return {
      message: replacementMessages.replaced(replaced.length, waiting.length),
      replaced,
      waiting,
      allowance: {
        ...allowance,
        used: allowance.used + old.length,
        left: allowance.left - old.length,
      },
    };
  });
}

/**
 * The console's counts: the pool's by reason, and each subnet's since its last swap, with the customers who flagged it
 * blocked counted once each. Rows are raised in subnet order, so two replacements never wait on each other's rows.
 */
async function countReplacements(
  tx: Tx,
  {
    productId,
    userId,
    reason,
    subnets,
    now,
  }: { productId: ProductId; userId: string; reason: ReplacementReason; subnets: string[]; now: Date },
) {
  const column = sql.raw(REASON_COLUMN[reason]);
  const asked = subnets.length;
  await tx.execute(sql`
    insert into ${ipReplacementCounts} (product_id, total, ${column}) values (${productId}, ${asked}, ${asked})
    on conflict (product_id) do update set total = ${ipReplacementCounts}.total + excluded.total,
      ${column} = ${ipReplacementCounts}.${column} + excluded.${column}`);
  const perSubnet = new Map<string, number>();
  for (const subnet of subnets) perSubnet.set(subnet, (perSubnet.get(subnet) ?? 0) + 1);
  for (const subnet of [...perSubnet.keys()].sort()) {
    const times = perSubnet.get(subnet) ?? 0;
    let newFlag = 0;
    if (reason === 'blocked') {
      const flagged = await tx
        .insert(ipReplacementFlags)
        .values({ productId, subnet, userId })
        .onConflictDoNothing()
        .returning({ userId: ipReplacementFlags.userId });
      newFlag = flagged.length;
    }
    await tx.execute(sql`
      insert into ${ipReplacementSubnets} (product_id, subnet, total, ${column}, blocked_customers, last_at)
      values (${productId}, ${subnet}, ${times}, ${times}, ${newFlag}, ${now.toISOString()})
      on conflict (product_id, subnet) do update set total = ${ipReplacementSubnets}.total + excluded.total,
        ${column} = ${ipReplacementSubnets}.${column} + excluded.${column},
        blocked_customers = ${ipReplacementSubnets}.blocked_customers + excluded.blocked_customers,
        last_at = excluded.last_at`);
  }
}
