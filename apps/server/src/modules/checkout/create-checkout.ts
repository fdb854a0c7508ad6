import { checkoutMessages, isProductId, PRODUCTS, quantityProblem } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { coupons, featureFlags, orders, products, promoCodes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { discountCents, promoCodeForCheckout, promoForProvider } from '../coupons/coupons.ts';
import type { PaymentProvider } from '../payments/provider.ts';

export interface CheckoutCustomer {
  id: string;
  email: string;
}

export interface CheckoutContext {
  db: Db;
  provider: PaymentProvider;
  appUrl: string;
  currency: string;
  log: FastifyBaseLogger;
  now?: Date;
}

const providerUnavailable = 'The payment provider could not be reached. No payment was taken; please try again.';

/** The body as sent; every field is checked here so that each refusal says what is wrong in words. */
function readBody(body: unknown) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('BAD_REQUEST', checkoutMessages.selectionRequired);
  }
  const { productId, quantity, coupon } = body as Record<string, unknown>;
  if (
    productId === undefined ||
    productId === null ||
    productId === '' ||
    quantity === undefined ||
    quantity === null
  ) {
    throw new AppError('BAD_REQUEST', checkoutMessages.selectionRequired);
  }
  if (!isProductId(productId)) throw new AppError('BAD_REQUEST', checkoutMessages.unknownProduct);
  if (typeof quantity !== 'number') throw new AppError('BAD_REQUEST', checkoutMessages.quantityNotWhole);
  const problem = quantityProblem(productId, quantity);
  if (problem) throw new AppError('BAD_REQUEST', problem);
  if (coupon !== undefined && coupon !== null && typeof coupon !== 'string') {
    throw new AppError('BAD_REQUEST', checkoutMessages.couponUnknown);
  }
  const code = typeof coupon === 'string' ? coupon.trim() : '';
  return { productId, quantity, code: code === '' ? undefined : code };
}

/**
 * POST /api/checkout (ARCHITECTURE section 4, step 1): validates, creates the order awaiting payment, asks the provider for
 * its payment page. A quantity above the stock is accepted: the paid order then waits as processing.
 */
export async function createCheckout(ctx: CheckoutContext, customer: CheckoutCustomer, body: unknown) {
  const { db, provider } = ctx;
  const now = ctx.now ?? new Date();
  const { productId, quantity, code } = readBody(body);
  const product = PRODUCTS[productId];

  const [flag] = await db.select().from(featureFlags).where(eq(featureFlags.featureName, productId));
  if (flag && !flag.isEnabled) throw new AppError('CONFLICT', checkoutMessages.productDisabled(product.label));
  const [catalogue] = await db.select().from(products).where(eq(products.id, productId));
  if (!catalogue) throw new AppError('BAD_REQUEST', checkoutMessages.unknownProduct);

  const promo = code ? await promoCodeForCheckout(db, code, productId, now) : undefined;
  const subtotalCents = catalogue.unitPriceCents * quantity;
  const discount = promo ? discountCents(promo.coupon, subtotalCents) : 0;

  const [order] = await db
    .insert(orders)
    .values({
      userId: customer.id,
      productId,
      quantity,
      unitPriceCents: catalogue.unitPriceCents,
      discountCents: discount,
      totalCents: subtotalCents - discount,
      currency: ctx.currency,
      promoCodeId: promo?.promo.id ?? null,
      provider: provider.name,
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('order insert returned nothing');

  let created: Awaited<ReturnType<PaymentProvider['createCheckout']>>;
  try {
    created = await provider.createCheckout({
      orderId: order.id,
      userId: customer.id,
      customerEmail: customer.email,
      productId,
      productName: product.label,
      quantity,
      unitPriceCents: catalogue.unitPriceCents,
      currency: ctx.currency,
      recurring: product.unit === 'ip_month',
      promoCode: promo && promoForProvider(promo),
      successUrl: `${ctx.appUrl}/dashboard/proxies?tab=${productId}`,
      cancelUrl: `${ctx.appUrl}/dashboard/purchase`,
    });
  } catch (error) {
    ctx.log.error({ err: error, orderId: order.id }, 'payment provider refused the checkout');
    await db.delete(orders).where(eq(orders.id, order.id));
    throw new AppError('UNAVAILABLE', providerUnavailable);
  }

  await db.transaction(async (tx) => {
    await tx
      .update(orders)
      .set({ providerCheckoutId: created.checkoutId, checkoutUrl: created.url, updatedAt: new Date() })
      .where(eq(orders.id, order.id));
    if (created.mirrored) {
      await tx
        .update(coupons)
        .set({ providerCouponId: created.mirrored.providerCouponId })
        .where(eq(coupons.id, created.mirrored.couponId));
      await tx
        .update(promoCodes)
        .set({ providerPromoCodeId: created.mirrored.providerPromoCodeId })
        .where(eq(promoCodes.id, created.mirrored.promoCodeId));
    }
  });
  return { orderId: order.id, checkoutUrl: created.url };
}
