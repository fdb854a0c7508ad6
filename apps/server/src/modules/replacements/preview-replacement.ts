import { counted, type ReplacementPreview, type ReplacementRequest, replacementMessages } from '@storefront/contract';
import type { Db } from '../../db/client.ts';
import { burntSubnetsOf, freeIpsUpTo } from '../delivery/replacement-ips.ts';
import { allowanceOf, checkReplaceable, namedIps, ownOrder } from './replaceable-order.ts';

/**
 * POST /api/orders/{id}/replacements/preview: what replacing these IPs would do (allowance used and left, how many get
 * a new IP at once and how many would wait for stock), changing nothing. The same checks as the replacement.
 */
export async function previewReplacement({
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
}): Promise<ReplacementPreview> {
  return db.transaction(async (tx) => {
    const order = await ownOrder(tx, { userId, orderId, lock: false });
    const allowance = await allowanceOf(tx, order, percent);
    const withinAllowance = checkReplaceable(order, allowance, request.ips.length, now);
    const old = await namedIps(tx, order, request, false);
    const excluded = [
      ...new Set([...old.map((ip) => ip.subnet), ...(await burntSubnetsOf(tx, userId, order.productId))]),
    ];
    const atOnce = await freeIpsUpTo(tx, { productId: order.productId, limit: old.length, excluded });
    const waiting = old.length - atOnce;
    const message = withinAllowance
      ? [
          `Replacing ${counted(old.length, 'IP', 'IPs')} uses ${old.length} of your ${allowance.left} replacements left this billing period (${allowance.left - old.length} left after).`,
          atOnce > 0
            ? `${counted(atOnce, 'new IP replaces', 'new IPs replace')} ${atOnce === 1 ? 'its' : 'their'} old ${atOnce === 1 ? 'one' : 'ones'} at once; the old ${atOnce === 1 ? 'one stops' : 'ones stop'} working.`
            : '',
          waiting > 0
            ? `${counted(waiting, 'IP waits', 'IPs wait')} for new stock and ${waiting === 1 ? 'keeps' : 'keep'} working until then.`
            : '',
        ]
          .filter(Boolean)
          .join(' ')
      : replacementMessages.overAllowance(old.length, allowance.left, allowance.limit);
    return {
      count: old.length,
      allowance,
      leftAfter: Math.max(0, allowance.left - old.length),
      atOnce,
      waiting,
      withinAllowance,
      message,
    };
  });
}
