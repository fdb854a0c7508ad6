import {
  type AdminCoupon,
  COUPON_DURATIONS,
  type CouponOptions,
  type CouponRedemption,
  couponMessages,
  type createCouponRequestSchema,
  PRODUCT_IDS,
  PRODUCTS,
} from '@storefront/contract';
import { asc, count, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { couponProducts, couponRedemptions, coupons, featureFlags, promoCodes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { createCoupon, findPromoCode, promoForProvider } from './coupons.ts';

/** GET /api/admin/coupons: every coupon, newest first, with its products and promo codes (spec section 3 'Coupon'). */
export async function listAdminCoupons({ db }: { db: Db }): Promise<AdminCoupon[]> {
  const [couponRows, productRows, codeRows] = await Promise.all([
    db.select().from(coupons).orderBy(desc(coupons.createdAt)),
    db.select().from(couponProducts),
    db.select().from(promoCodes).orderBy(asc(promoCodes.createdAt)),
  ]);
  return couponRows.map((coupon) => ({
    id: coupon.id,
    name: coupon.name,
    percentOff: coupon.percentOff,
    amountOff: coupon.amountOffCents,
    currency: coupon.currency,
    duration: coupon.duration,
    durationInMonths: coupon.durationInMonths,
    created: Math.floor(coupon.createdAt.getTime() / 1000),
    products: productRows
      .filter((row) => row.couponId === coupon.id)
      .map((row) => ({ id: row.productId, name: PRODUCTS[row.productId].label })),
    promoCodes: codeRows
      .filter((row) => row.couponId === coupon.id)
      .map((row) => ({
        id: row.id,
        code: row.code,
        active: row.active,
        timesRedeemed: row.timesRedeemed,
        maxRedemptions: row.maxRedemptions,
        expiresAt: row.expiresAt?.toISOString() ?? null,
      })),
  }));
}

/** GET /api/admin/coupons/options: the durations and the products a coupon can apply to. */
export async function couponOptions({ db }: { db: Db }): Promise<CouponOptions> {
  const flags = new Map((await db.select().from(featureFlags)).map((flag) => [flag.featureName, flag.isEnabled]));
  return {
    durationOptions: COUPON_DURATIONS.map((option) => ({ ...option })),
    products: PRODUCT_IDS.map((id) => ({ id, name: PRODUCTS[id].label, active: flags.get(id) ?? true })),
  };
}

/** GET /api/admin/coupons/redemptions: per code, paid checkouts that used it, by customer e-mail. */
export async function listRedemptions({
  db,
}: {
  db: Db;
}): Promise<{ coupons: CouponRedemption[]; totalCoupons: number }> {
  const [rows, [total]] = await Promise.all([
    db
      .select({ code: promoCodes.code, email: couponRedemptions.email, uses: count() })
      .from(couponRedemptions)
      .innerJoin(promoCodes, eq(promoCodes.id, couponRedemptions.promoCodeId))
      .groupBy(promoCodes.code, couponRedemptions.email)
      .orderBy(asc(promoCodes.code), asc(couponRedemptions.email)),
    db.select({ value: count() }).from(coupons),
  ]);
  const byCode = new Map<string, CouponRedemption>();
  for (const row of rows) {
    const entry = byCode.get(row.code) ?? {
      couponCode: row.code,
      totalRedemptions: 0,
      uniqueUsers: 0,
      redemptionsByEmail: [],
    };
    const uses = Number(row.uses);
    entry.totalRedemptions += uses;
    entry.uniqueUsers += 1;
    entry.redemptionsByEmail.push({ email: row.email, count: uses });
    byCode.set(row.code, entry);
  }
  return {
    coupons: [...byCode.values()].sort((a, b) => b.totalRedemptions - a.totalRedemptions),
    totalCoupons: Number(total?.value ?? 0),
  };
}

async function atProvider<T>(log: FastifyBaseLogger, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    log.error({ err: error }, 'the payment provider refused a coupon change');
    throw new AppError('UNAVAILABLE', couponMessages.providerFailed);
  }
}

/**
 * POST /api/admin/coupons: the coupon and its code are written and, with Stripe, created there in the same transaction:
 * a refusal at Stripe rolls the shop's copy back, so there is never a half-made coupon.
 */
export async function createAdminCoupon({
  db,
  provider,
  log,
  actor,
  input,
}: {
  db: Db;
  provider: PaymentProvider;
  log: FastifyBaseLogger;
  actor: Actor;
  input: z.output<typeof createCouponRequestSchema>;
}): Promise<{ message: string }> {
  if (await findPromoCode(db, input.code)) throw new AppError('CONFLICT', couponMessages.codeTaken);
  return db.transaction(async (tx) => {
    const { coupon, promo } = await createCoupon({
      db: tx,
      code: input.code,
      name: input.name,
      duration: input.duration,
      ...(input.duration === 'repeating' && input.durationInMonths && { durationInMonths: input.durationInMonths }),
      ...(input.discountType === 'percent_off'
        ? { percentOff: input.percentOff ?? 0 }
        : { amountOffCents: input.amountOff ?? 0 }),
      productIds: [...new Set(input.appliesToProducts)],
      ...(input.maxRedemptions && { maxRedemptions: input.maxRedemptions }),
    });
    const found = await findPromoCode(tx, promo.code);
    if (!found) throw new Error('the new promo code was not found');
    const mirrored = await atProvider(log, () => provider.createCoupon(promoForProvider(found)));
    if (mirrored.providerCouponId) {
      await tx.update(coupons).set({ providerCouponId: mirrored.providerCouponId }).where(eq(coupons.id, coupon.id));
      await tx
        .update(promoCodes)
        .set({ providerPromoCodeId: mirrored.providerPromoCodeId })
        .where(eq(promoCodes.id, promo.id));
    }
    const discount =
      input.discountType === 'percent_off' ? `${input.percentOff}%` : `$${((input.amountOff ?? 0) / 100).toFixed(2)}`;
    await recordAudit({
      tx,
      actor,
      action: 'coupon.create',
      summary: `Coupon ${promo.code} (${discount} off, ${input.duration}) for ${input.appliesToProducts.join(', ')}`,
      details: { couponId: coupon.id, code: promo.code, providerCouponId: mirrored.providerCouponId },
    });
    return { message: couponMessages.created };
  });
}

/** PATCH /api/admin/coupons/{promoCodeId}/toggle: a code on or off, here and at Stripe, together or not at all. */
export async function toggleAdminPromoCode({
  db,
  provider,
  log,
  actor,
  promoCodeId,
  active,
}: {
  db: Db;
  provider: PaymentProvider;
  log: FastifyBaseLogger;
  actor: Actor;
  promoCodeId: string;
  active: boolean;
}): Promise<{ message: string }> {
  return db.transaction(async (tx) => {
    const [promo] = await tx.select().from(promoCodes).where(eq(promoCodes.id, promoCodeId)).for('update');
    if (!promo) throw new AppError('NOT_FOUND', couponMessages.promoNotFound);
    await tx.update(promoCodes).set({ active }).where(eq(promoCodes.id, promo.id));
    if (promo.providerPromoCodeId) {
      const providerId = promo.providerPromoCodeId;
      await atProvider(log, () => provider.setPromoCodeActive(providerId, active));
    }
    await recordAudit({
      tx,
      actor,
      action: 'coupon.toggle',
      summary: `Promo code ${promo.code} ${active ? 'activated' : 'deactivated'}`,
      details: { promoCodeId: promo.id, code: promo.code, active },
    });
    return { message: `Promo code ${promo.code} is now ${active ? 'active' : 'inactive'}.` };
  });
}

/**
 * DELETE /api/admin/coupons/{couponId}: the coupon, its codes and their redemption records go, here and at Stripe. Orders
 * that used it keep their prices.
 */
export async function deleteAdminCoupon({
  db,
  provider,
  log,
  actor,
  couponId,
}: {
  db: Db;
  provider: PaymentProvider;
  log: FastifyBaseLogger;
  actor: Actor;
  couponId: string;
}): Promise<{ message: string }> {
  return db.transaction(async (tx) => {
    const [coupon] = await tx.select().from(coupons).where(eq(coupons.id, couponId)).for('update');
    if (!coupon) throw new AppError('NOT_FOUND', couponMessages.couponNotFound);
    const codes = await tx.select({ code: promoCodes.code }).from(promoCodes).where(eq(promoCodes.couponId, coupon.id));
    await tx.delete(coupons).where(eq(coupons.id, coupon.id));
    if (coupon.providerCouponId) {
      const providerId = coupon.providerCouponId;
      await atProvider(log, () => provider.deleteCoupon(providerId));
    }
    const names = codes.map((row) => row.code).join(', ');
    await recordAudit({
      tx,
      actor,
      action: 'coupon.delete',
      summary: `Coupon ${coupon.name}${names ? ` (${names})` : ''} deleted`,
      details: { couponId: coupon.id, codes: codes.map((row) => row.code) },
    });
    return { message: `Coupon ${coupon.name} deleted.` };
  });
}
