import { type CheckoutSelection, checkoutMessages, PRODUCTS, paidReturnPath, paths } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { coupons, featureFlags, orders, products, promoCodes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { CHECKOUT_PAYABLE_MS, type PaymentProvider } from '../../payments/provider.ts';
import { discountCents, promoCodeForCheckout, promoForProvider } from '../coupons/coupons.ts';

export interface CreateCheckoutOptions {
  db: Db;
  provider: PaymentProvider;
  appUrl: string;
  currency: string;
  customer: { id: string; email: string };
  /** The body as the contract's schema has checked it. */
  request: CheckoutSelection;
  /** An administrator's custom order for this customer: made even while the product is switched off, fulfilled by hand. */
  custom?: boolean;
  now?: Date;
}

/**
 * POST /api/checkout (ARCHITECTURE section 4, step 1): creates the order awaiting payment and asks the provider for its
 * payment page. A quantity above the stock is accepted: the paid order then waits as processing.
 */
export async function createCheckout(options: CreateCheckoutOptions) {
  const { db, provider, customer } = options;
  const now = options.now ?? new Date();
  const { productId, quantity, coupon: code } = options.request;
  const product = PRODUCTS[productId];

  const [flag] = await db.select().from(featureFlags).where(eq(featureFlags.featureName, productId));
  if (flag && !flag.isEnabled && !options.custom) {
    throw new AppError('CONFLICT', checkoutMessages.productDisabled(product.label));
  }
  const [catalogue] = await db.select().from(products).where(eq(products.id, productId));
  if (!catalogue) throw new AppError('BAD_REQUEST', checkoutMessages.unknownProduct);

  // The code's checks, the hold on one of its uses and the order that holds it commit together (coupons.ts).
  const { order, promo } = await db.transaction(async (tx) => {
    const promo = code ? await promoCodeForCheckout({ tx, code, productId, now }) : undefined;
    const subtotalCents = catalogue.unitPriceCents * quantity;
    const discount = promo ? discountCents(promo.coupon, subtotalCents) : 0;
    const [order] = await tx
      .insert(orders)
      .values({
        userId: customer.id,
        productId,
        quantity,
        unitPriceCents: catalogue.unitPriceCents,
        discountCents: discount,
        totalCents: subtotalCents - discount,
        currency: options.currency,
        promoCodeId: promo?.promo.id ?? null,
        provider: provider.name,
        custom: options.custom ?? false,
      })
      .returning({ id: orders.id, createdAt: orders.createdAt });
    if (!order) throw new Error('order insert returned nothing');
    return { order, promo };
  });

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
      currency: options.currency,
      recurring: product.unit === 'ip_month',
      promoCode: promo && promoForProvider(promo),
      successUrl: `${options.appUrl}${paidReturnPath(productId)}`,
      cancelUrl: `${options.appUrl}${paths.purchase}`,
      expiresAt: new Date(order.createdAt.getTime() + CHECKOUT_PAYABLE_MS),
    });
  } catch (error) {
    // Nothing can pay an order without its page: it goes, and with it the hold on its coupon's use. The error is the
    // provider's one kind (ProviderError), answered by the error handler.
    await db.delete(orders).where(eq(orders.id, order.id));
    throw error;
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
