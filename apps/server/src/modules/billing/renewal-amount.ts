import { count, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { coupons, payments, promoCodes } from '../../db/schema.ts';
import type { OrderRow } from './order-facts.ts';

/**
 * What a renewal of an order costs: the unit price times the quantity, less the order's discount while its coupon lasts
 * ('forever', or 'repeating' for its number of months counted in payments; 'once' only the first payment). The periodic
 * job, its reminder e-mail and the sandbox's billing page all charge through this one function.
 */
export async function renewalAmount(tx: Tx, order: OrderRow): Promise<{ amountCents: number; discountCents: number }> {
  const subtotal = order.unitPriceCents * order.quantity;
  if (!order.promoCodeId) return { amountCents: subtotal, discountCents: 0 };
  const [coupon] = await tx
    .select({ duration: coupons.duration, months: coupons.durationInMonths })
    .from(promoCodes)
    .innerJoin(coupons, eq(coupons.id, promoCodes.couponId))
    .where(eq(promoCodes.id, order.promoCodeId));
  const [paid] = await tx.select({ value: count() }).from(payments).where(eq(payments.orderId, order.id));
  const applies =
    coupon?.duration === 'forever' || (coupon?.duration === 'repeating' && (paid?.value ?? 0) < (coupon.months ?? 0));
  const discount = applies ? order.discountCents : 0;
  return { amountCents: subtotal - discount, discountCents: discount };
}
