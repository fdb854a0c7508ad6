import { randomUUID } from 'node:crypto';
import {
  type AdminCoupon,
  COUPON_DURATIONS,
  type CouponOptions,
  couponMessages,
  type createCouponRequestSchema,
  formatMoney,
  PRODUCT_IDS,
  PRODUCTS,
} from '@storefront/contract';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { couponProducts, coupons, featureFlags, promoCodes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider, PromoCodeForProvider } from '../../payments/provider.ts';
import { beginStep, codeBeingCreated, endStep, handOver, type Step } from '../../payments/provider-steps.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { createCoupon, findPromoCode, type NewCoupon } from './coupons.ts';

/**
 * GET /api/admin/coupons: every coupon not deleted, newest first, with its products and promo codes (spec section 3
 * 'Coupon').
 */
export async function listAdminCoupons({ db }: { db: Db }): Promise<AdminCoupon[]> {
  const [couponRows, productRows, codeRows] = await Promise.all([
    db.select().from(coupons).where(isNull(coupons.deletedAt)).orderBy(desc(coupons.createdAt)),
    db
      .select({ couponId: couponProducts.couponId, productId: couponProducts.productId })
      .from(couponProducts)
      .innerJoin(coupons, eq(coupons.id, couponProducts.couponId))
      .where(isNull(coupons.deletedAt)),
    db.select().from(promoCodes).where(isNull(promoCodes.deletedAt)).orderBy(asc(promoCodes.createdAt)),
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

/** The coupon an administrator asked for, as the shop stores it. */
function newCouponOf(input: z.output<typeof createCouponRequestSchema>): NewCoupon {
  return {
    code: input.code,
    name: input.name,
    duration: input.duration,
    ...(input.duration === 'repeating' && input.durationInMonths && { durationInMonths: input.durationInMonths }),
    ...(input.discountType === 'percent_off'
      ? { percentOff: input.percentOff ?? 0 }
      : { amountOffCents: input.amountOff ?? 0 }),
    productIds: [...new Set(input.appliesToProducts)],
    ...(input.maxRedemptions && { maxRedemptions: input.maxRedemptions }),
  };
}

/** What `createCoupon` stores, as the provider needs it: the coupon does not exist here yet. */
function promoOfNew(couponId: string, promoCodeId: string, coupon: NewCoupon, currency: string): PromoCodeForProvider {
  return {
    promoCodeId,
    code: coupon.code,
    providerPromoCodeId: null,
    maxRedemptions: coupon.maxRedemptions ?? null,
    expiresAt: coupon.expiresAt ?? null,
    coupon: {
      id: couponId,
      name: coupon.name,
      percentOff: coupon.percentOff ?? null,
      amountOffCents: coupon.percentOff === undefined ? (coupon.amountOffCents ?? null) : null,
      currency,
      duration: coupon.duration,
      durationInMonths: coupon.duration === 'repeating' ? (coupon.durationInMonths ?? 1) : null,
      providerCouponId: null,
      productIds: coupon.productIds,
    },
  };
}

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/**
 * POST /api/admin/coupons: the code is reserved by a recorded step, the coupon and its code are made at the provider
 * (Stripe), and only then written here with the provider's ids, in one transaction with the audit entry. A failure
 * leaves nothing here; what the provider may have made is removed by the periodic job (provider-steps.ts).
 */
export async function createAdminCoupon({
  db,
  provider,
  actor,
  input,
}: {
  db: Db;
  provider: PaymentProvider;
  actor: Actor;
  input: z.output<typeof createCouponRequestSchema>;
}): Promise<{ message: string }> {
  const coupon = newCouponOf(input);
  const couponId = randomUUID();
  const promoCodeId = randomUUID();
  const step = await db.transaction(async (tx) => {
    if ((await findPromoCode(tx, input.code)) || (await codeBeingCreated(tx, input.code))) {
      throw new AppError('CONFLICT', couponMessages.codeTaken);
    }
    return beginStep(tx, { kind: 'coupon.create', subjectId: couponId, detail: { code: input.code } });
  });
  let made: Awaited<ReturnType<PaymentProvider['createCoupon']>>;
  try {
    made = await provider.createCoupon(promoOfNew(couponId, promoCodeId, coupon, 'usd'));
  } catch (error) {
    await handOver(db, step, error);
    throw error;
  }
  try {
    return await db.transaction(async (tx) => {
      await endStep(tx, step);
      await createCoupon({ db: tx, ...coupon, id: couponId, promoCodeId, ...made });
      const discount =
        input.discountType === 'percent_off' ? `${input.percentOff}%` : formatMoney(input.amountOff ?? 0, 'usd');
      await recordAudit({
        tx,
        actor,
        action: 'coupon.create',
        summary: `Coupon ${input.code} (${discount} off, ${input.duration}) for ${input.appliesToProducts.join(', ')}`,
        details: { couponId, code: input.code, providerCouponId: made.providerCouponId },
      });
      return { message: couponMessages.created };
    });
  } catch (error) {
    // The same code created at the same moment by another administrator: this one is undone by the job.
    if (isUniqueViolation(error)) {
      await handOver(db, step, error);
      throw new AppError('CONFLICT', couponMessages.codeTaken);
    }
    throw error;
  }
}

/**
 * PATCH /api/admin/coupons/{promoCodeId}/toggle: a code on or off, at the provider first (a recorded step), then here
 * with the audit entry. A code the provider has no copy of changes here at once.
 */
export async function toggleAdminPromoCode({
  db,
  provider,
  actor,
  promoCodeId,
  active,
}: {
  db: Db;
  provider: PaymentProvider;
  actor: Actor;
  promoCodeId: string;
  active: boolean;
}): Promise<{ message: string }> {
  const apply = async (tx: Tx, promo: { id: string; code: string }) => {
    await tx.update(promoCodes).set({ active }).where(eq(promoCodes.id, promo.id));
    await recordAudit({
      tx,
      actor,
      action: 'coupon.toggle',
      summary: `Promo code ${promo.code} ${active ? 'activated' : 'deactivated'}`,
      details: { promoCodeId: promo.id, code: promo.code, active },
    });
    return { message: `Promo code ${promo.code} is now ${active ? 'active' : 'inactive'}.` };
  };
  const begun = await db.transaction(async (tx) => {
    const [promo] = await tx
      .select()
      .from(promoCodes)
      .where(and(eq(promoCodes.id, promoCodeId), isNull(promoCodes.deletedAt)))
      .for('update');
    if (!promo) throw new AppError('NOT_FOUND', couponMessages.promoNotFound);
    if (!promo.providerPromoCodeId) return { done: true as const, answer: await apply(tx, promo) };
    const providerId = promo.providerPromoCodeId;
    const step = await beginStep(tx, { kind: 'promo.toggle', subjectId: promo.id, detail: { providerId, active } });
    return { done: false as const, promo, providerId, step };
  });
  if (begun.done) return begun.answer;
  try {
    await provider.setPromoCodeActive(begun.providerId, active, `toggle-${begun.step.id}`);
  } catch (error) {
    await handOver(db, begun.step, error);
    throw error;
  }
  return db.transaction(async (tx) => {
    await endStep(tx, begun.step);
    return apply(tx, begun.promo);
  });
}

/**
 * DELETE /api/admin/coupons/{couponId}: the coupon goes at the provider first (a recorded step), then is marked deleted
 * here with its codes and the audit entry (docs/decisions/2026-11-25-coupon-delete.md). Its codes can no longer be used
 * and may be taken by a new coupon; its redemptions, and the orders that used it, keep naming it and its discount.
 */
export async function deleteAdminCoupon({
  db,
  provider,
  actor,
  couponId,
}: {
  db: Db;
  provider: PaymentProvider;
  actor: Actor;
  couponId: string;
}): Promise<{ message: string }> {
  const begun = await db.transaction(async (tx) => {
    const [coupon] = await tx
      .select()
      .from(coupons)
      .where(and(eq(coupons.id, couponId), isNull(coupons.deletedAt)))
      .for('update');
    if (!coupon) throw new AppError('NOT_FOUND', couponMessages.couponNotFound);
    if (!coupon.providerCouponId) return { done: true as const, answer: await removeCoupon(tx, coupon.id, actor) };
    const providerId = coupon.providerCouponId;
    const step = await beginStep(tx, { kind: 'coupon.delete', subjectId: coupon.id, detail: { providerId, actor } });
    return { done: false as const, providerId, step };
  });
  if (begun.done) return begun.answer;
  try {
    await provider.deleteCoupon(begun.providerId);
  } catch (error) {
    await handOver(db, begun.step, error);
    throw error;
  }
  return db.transaction(async (tx) => {
    await endStep(tx, begun.step);
    return removeCoupon(tx, couponId, actor);
  });
}

/**
 * Marks a coupon and its codes deleted here, with the audit entry; deleted already is fine. Nothing is removed: the
 * redemptions and the orders that used its codes keep them (and the renewals of those orders their discount).
 */
async function removeCoupon(tx: Tx, couponId: string, actor: Actor): Promise<{ message: string }> {
  const [coupon] = await tx
    .update(coupons)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(coupons.id, couponId), isNull(coupons.deletedAt)))
    .returning();
  if (!coupon) return { message: couponMessages.couponNotFound };
  const codes = await tx
    .update(promoCodes)
    .set({ deletedAt: coupon.deletedAt })
    .where(and(eq(promoCodes.couponId, coupon.id), isNull(promoCodes.deletedAt)))
    .returning({ code: promoCodes.code, timesRedeemed: promoCodes.timesRedeemed });
  const names = codes.map((row) => row.code).join(', ');
  const redemptions = codes.reduce((sum, row) => sum + row.timesRedeemed, 0);
  await recordAudit({
    tx,
    actor,
    action: 'coupon.delete',
    summary: `Coupon ${coupon.name}${names ? ` (${names})` : ''} deleted`,
    details: { couponId: coupon.id, codes: codes.map((row) => row.code), redemptions },
  });
  return { message: couponMessages.deleted(coupon.name, redemptions) };
}

const actorSchema = z.object({ id: z.string(), email: z.string() });

/**
 * The periodic job's end of a coupon step left behind (provider-steps.ts): a creation is undone (whatever the provider
 * made is removed: nobody was told it worked); a deletion is finished if the provider no longer has the coupon, and
 * undone (the coupon stays) if it has; a code's switch is undone by sending the code's state here to the provider.
 * Answers the transaction that ends the step with its outcome.
 */
export async function settleCouponStep(
  db: Db,
  provider: PaymentProvider,
  step: Step,
): Promise<((tx: Tx) => Promise<void>) | undefined> {
  switch (step.kind) {
    case 'coupon.create':
      await provider.undoCreateCoupon(step.subjectId);
      return async () => {};
    case 'coupon.delete': {
      const detail = z.object({ providerId: z.string(), actor: actorSchema }).parse(step.detail);
      if (await provider.couponExists(detail.providerId)) return async () => {};
      return async (tx) => {
        await removeCoupon(tx, step.subjectId, detail.actor);
      };
    }
    case 'promo.toggle': {
      const detail = z.object({ providerId: z.string() }).parse(step.detail);
      const [promo] = await db.select().from(promoCodes).where(eq(promoCodes.id, step.subjectId));
      if (promo) await provider.setPromoCodeActive(detail.providerId, promo.active, `toggle-${step.id}-${step.claim}`);
      return async () => {};
    }
    default:
      return undefined;
  }
}
