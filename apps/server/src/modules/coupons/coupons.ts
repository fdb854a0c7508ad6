import { checkoutMessages, PRODUCTS, type ProductId } from '@storefront/contract';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { couponProducts, couponRedemptions, coupons, orders, promoCodes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { CHECKOUT_PAYABLE_MS, type PromoCodeForProvider } from '../../payments/provider.ts';

export interface NewCoupon {
  code: string;
  name: string;
  duration: 'once' | 'repeating' | 'forever';
  durationInMonths?: number;
  percentOff?: number;
  amountOffCents?: number;
  productIds: ProductId[];
  maxRedemptions?: number;
  expiresAt?: Date;
  /** Ids chosen beforehand (a coupon made at Stripe first has them already), and the provider's ids of its copies. */
  id?: string;
  promoCodeId?: string;
  providerCouponId?: string | null;
  providerPromoCodeId?: string | null;
}

/**
 * Creates a coupon with its promo code, in one transaction. The admin screens that manage coupons come with their own
 * issue; until then tests and the demo seed create coupons here.
 */
export async function createCoupon({ db, ...input }: NewCoupon & { db: Db | Tx }) {
  return db.transaction(async (tx) => {
    const [coupon] = await tx
      .insert(coupons)
      .values({
        ...(input.id && { id: input.id }),
        name: input.name,
        duration: input.duration,
        durationInMonths: input.duration === 'repeating' ? (input.durationInMonths ?? 1) : null,
        percentOff: input.percentOff ?? null,
        amountOffCents: input.percentOff === undefined ? (input.amountOffCents ?? null) : null,
        providerCouponId: input.providerCouponId ?? null,
      })
      .returning();
    if (!coupon) throw new Error('coupon insert returned nothing');
    await tx.insert(couponProducts).values(input.productIds.map((productId) => ({ couponId: coupon.id, productId })));
    const [promo] = await tx
      .insert(promoCodes)
      .values({
        ...(input.promoCodeId && { id: input.promoCodeId }),
        couponId: coupon.id,
        code: input.code,
        maxRedemptions: input.maxRedemptions ?? null,
        expiresAt: input.expiresAt ?? null,
        providerPromoCodeId: input.providerPromoCodeId ?? null,
      })
      .returning();
    if (!promo) throw new Error('promo code insert returned nothing');
    return { coupon, promo };
  });
}

/**
 * Finds a code (case does not matter) with its coupon and products, or undefined. A deleted coupon's code is not found:
 * it cannot be used, and a new coupon may take it (at most one code of a spelling is not deleted: promo_codes_code_key).
 */
export async function findPromoCode(db: Db | Tx, code: string) {
  const rows = await db
    .select({ promo: promoCodes, coupon: coupons })
    .from(promoCodes)
    .innerJoin(coupons, eq(coupons.id, promoCodes.couponId))
    .where(
      and(sql`lower(${promoCodes.code}) = lower(${code})`, isNull(promoCodes.deletedAt), isNull(coupons.deletedAt)),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return undefined;
  const products = await db
    .select({ productId: couponProducts.productId })
    .from(couponProducts)
    .where(eq(couponProducts.couponId, row.coupon.id));
  return { ...row, productIds: products.map((product) => product.productId) };
}
export type FoundPromoCode = NonNullable<Awaited<ReturnType<typeof findPromoCode>>>;

/**
 * The code a customer typed (its length checked by the contract), checked for this product now; throws the refusal. A
 * code with a use limit is locked and one of its uses is held for the checkout the caller inserts in the same
 * transaction: see `usesTaken`.
 */
export async function promoCodeForCheckout({
  tx,
  code,
  productId,
  now,
}: {
  tx: Tx;
  code: string;
  productId: ProductId;
  now: Date;
}) {
  const found = await findPromoCode(tx, code);
  if (!found) throw new AppError('BAD_REQUEST', checkoutMessages.couponUnknown);
  const { promo } = found;
  if (!promo.active) throw new AppError('BAD_REQUEST', checkoutMessages.couponInactive);
  if (promo.expiresAt && promo.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('BAD_REQUEST', checkoutMessages.couponExpired);
  }
  if (!found.productIds.includes(productId)) {
    throw new AppError('BAD_REQUEST', checkoutMessages.couponNotForProduct(PRODUCTS[productId].label));
  }
  // Last, so that no other refusal waits for the lock.
  if (promo.maxRedemptions !== null && (await usesTaken(tx, promo.id)) >= promo.maxRedemptions) {
    throw new AppError('BAD_REQUEST', checkoutMessages.couponUsedUp);
  }
  return found;
}

/**
 * How long an unpaid checkout holds a use: as long as its payment page can be paid, and a few minutes more for the
 * difference between our clocks and the provider's (Stripe's page closes at the order's creation plus the page's life).
 */
const HOLD_SECONDS = Math.round(CHECKOUT_PAYABLE_MS / 1000) + 5 * 60;

/**
 * The uses of a code taken now: paid and held by checkouts whose page can still be paid. The code's row is locked
 * until the caller's transaction ends, so instances take the last use one at a time; the count is a statement of its
 * own because, under READ COMMITTED, one that waited for the lock would still read its older snapshot. A hold ends by
 * itself (paid, removed or expired): nothing has to give it back.
 */
async function usesTaken(tx: Tx, promoCodeId: string): Promise<number> {
  const [locked] = await tx
    .select({ timesRedeemed: promoCodes.timesRedeemed })
    .from(promoCodes)
    .where(eq(promoCodes.id, promoCodeId))
    .for('update');
  const [held] = await tx
    .select({ value: count() })
    .from(orders)
    .where(
      and(
        eq(orders.promoCodeId, promoCodeId),
        eq(orders.status, 'awaiting_payment'),
        sql`${orders.createdAt} > now() - make_interval(secs => ${HOLD_SECONDS})`,
      ),
    );
  return (locked?.timesRedeemed ?? 0) + Number(held?.value ?? 0);
}

/** The discount of a coupon on a subtotal, in cents: a percentage rounded to the cent, or a fixed amount at most the subtotal. */
export function discountCents(
  coupon: { percentOff: number | null; amountOffCents: number | null },
  subtotalCents: number,
): number {
  if (coupon.percentOff !== null) return Math.round((subtotalCents * coupon.percentOff) / 100);
  return Math.min(subtotalCents, coupon.amountOffCents ?? 0);
}

export function promoForProvider(found: FoundPromoCode): PromoCodeForProvider {
  const { promo, coupon } = found;
  return {
    promoCodeId: promo.id,
    code: promo.code,
    providerPromoCodeId: promo.providerPromoCodeId,
    maxRedemptions: promo.maxRedemptions,
    expiresAt: promo.expiresAt,
    coupon: {
      id: coupon.id,
      name: coupon.name,
      percentOff: coupon.percentOff,
      amountOffCents: coupon.amountOffCents,
      currency: coupon.currency,
      duration: coupon.duration,
      durationInMonths: coupon.durationInMonths,
      providerCouponId: coupon.providerCouponId,
      productIds: found.productIds,
    },
  };
}

/**
 * Records a paid order's use of a code with the customer's e-mail; a second call for the same order does nothing. It is
 * recorded even past the code's limit: a payment for a checkout whose hold had ended (a delayed payment method confirmed
 * after its page expired) was made at the discounted price, so the order is honoured and the use counted as it happened.
 * For the same reason it is recorded when the code's coupon was deleted after the checkout started.
 */
export async function recordRedemption({
  tx,
  ...input
}: {
  tx: Tx;
  promoCodeId: string;
  orderId: string;
  email: string;
}) {
  const email = input.email.toLowerCase();
  // The code's row first: redemptions of one code are recorded one at a time, so whether this e-mail is new to the code
  // is read (a statement of its own, after the lock) with every earlier redemption in sight.
  await tx.select({ id: promoCodes.id }).from(promoCodes).where(eq(promoCodes.id, input.promoCodeId)).for('update');
  const [known] = await tx
    .select({ id: couponRedemptions.id })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.promoCodeId, input.promoCodeId), eq(couponRedemptions.email, email)))
    .limit(1);
  const inserted = await tx
    .insert(couponRedemptions)
    .values({ ...input, email })
    .onConflictDoNothing({ target: couponRedemptions.orderId })
    .returning({ id: couponRedemptions.id });
  if (inserted.length > 0) {
    await tx
      .update(promoCodes)
      .set({
        timesRedeemed: sql`${promoCodes.timesRedeemed} + 1`,
        ...(known === undefined && { customers: sql`${promoCodes.customers} + 1` }),
      })
      .where(eq(promoCodes.id, input.promoCodeId));
  }
}
