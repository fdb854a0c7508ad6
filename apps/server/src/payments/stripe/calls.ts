import { PRODUCT_IDS, PRODUCTS, type ProductId, topUpMessages } from '@storefront/contract';
import Stripe from 'stripe';
import {
  type CardSetup,
  type CardSetupInput,
  type ChargeOutcome,
  type CheckoutInput,
  type CreatedCheckout,
  PROVIDER_UNREACHABLE,
  type PromoCodeForProvider,
  ProviderError,
  type SavedCardCharge,
} from '../provider.ts';
import { type Act, isMissing, type StripeAction } from './client.ts';
import { chargeOutcomeOf, type Rereads, refusalOf } from './events.ts';

/** Our products at Stripe have fixed ids, so coupons can name them whatever the price. */
export const stripeProductId = (productId: ProductId) => `storefront_${productId}`;
/** A coupon's id at Stripe is made from ours: a create whose answer was lost can still be found and undone. */
export const stripeCouponId = (couponId: string) => `storefront_coupon_${couponId}`;
/** A price is found by lookup key; a new unit price in the configuration gets a new key, hence a new price. */
export const stripeLookupKey = (productId: ProductId, unitCents: number, currency: string) =>
  `storefront_${productId}_${currency}_${unitCents}`;

export interface PriceOptions {
  pricesCents: Record<ProductId, number>;
  currency: string;
}

/**
 * Our prices at Stripe, found by lookup key or created, once per process; a failure (Stripe unreachable) is retried by
 * the next checkout.
 */
export function stripePrices(act: Act, options: PriceOptions) {
  let priceIds = new Map<ProductId, string>();
  let preparing: Promise<void> | undefined;

  function prepare(): Promise<void> {
    preparing ??= act('load the prices', (action) => loadPrices(action, options)).then(
      (loaded) => {
        priceIds = loaded;
      },
      (error: unknown) => {
        preparing = undefined;
        throw error;
      },
    );
    return preparing;
  }

  async function priceOf(productId: ProductId): Promise<string> {
    await prepare();
    const price = priceIds.get(productId);
    if (!price) throw new Error(`No Stripe price for ${productId}`);
    return price;
  }

  return { prepare, priceOf };
}

async function loadPrices(action: StripeAction, options: PriceOptions): Promise<Map<ProductId, string>> {
  const { stripe, call } = action;
  const keyOf = (productId: ProductId) => stripeLookupKey(productId, options.pricesCents[productId], options.currency);
  const found = await stripe.prices.list({ lookup_keys: PRODUCT_IDS.map(keyOf), active: true, limit: 10 }, call());
  const priceIds = new Map<ProductId, string>();
  for (const productId of PRODUCT_IDS) {
    const key = keyOf(productId);
    const price =
      found.data.find((candidate) => candidate.lookup_key === key) ??
      (await createPrice(action, options, productId, key));
    priceIds.set(productId, price.id);
  }
  return priceIds;
}

async function createPrice(action: StripeAction, options: PriceOptions, productId: ProductId, key: string) {
  await ensureProduct(action, productId);
  return action.stripe.prices.create(
    {
      product: stripeProductId(productId),
      currency: options.currency,
      unit_amount: options.pricesCents[productId],
      lookup_key: key,
      nickname: PRODUCTS[productId].label,
      ...(PRODUCTS[productId].unit === 'ip_month' && { recurring: { interval: 'month' as const } }),
    },
    action.call({ idempotencyKey: `price-${key}` }),
  );
}

async function ensureProduct({ stripe, call }: StripeAction, productId: ProductId) {
  try {
    await stripe.products.retrieve(stripeProductId(productId), {}, call());
  } catch (error) {
    if (!isMissing(error)) throw error;
    await stripe.products.create(
      {
        id: stripeProductId(productId),
        name: PRODUCTS[productId].label,
        description: PRODUCTS[productId].description,
      },
      call({ idempotencyKey: `product-${productId}` }),
    );
  }
}

/**
 * A Checkout Session for the order: subscription mode for the monthly products, payment mode with an invoice for
 * residential data; the promo code is mirrored at Stripe first if it is not there yet.
 */
export async function startCheckout(
  action: StripeAction,
  input: CheckoutInput,
  price: string,
): Promise<CreatedCheckout> {
  const mirrored =
    input.promoCode && !input.promoCode.providerPromoCodeId
      ? await mirrorPromoCode(action, input.promoCode)
      : undefined;
  const promotionCode = mirrored?.providerPromoCodeId ?? input.promoCode?.providerPromoCodeId ?? undefined;
  const session = await action.stripe.checkout.sessions.create(
    sessionParams(input, price, promotionCode),
    action.call({ idempotencyKey: `checkout-${input.orderId}` }),
  );
  if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
  return { checkoutId: session.id, url: session.url, ...(mirrored && { mirrored }) };
}

function sessionParams(
  input: CheckoutInput,
  price: string,
  promotionCode: string | undefined,
): Stripe.Checkout.SessionCreateParams {
  const metadata = { orderId: input.orderId, userId: input.userId, productId: input.productId };
  return {
    mode: input.recurring ? 'subscription' : 'payment',
    line_items: [{ price, quantity: input.quantity }],
    ...(promotionCode && { discounts: [{ promotion_code: promotionCode }] }),
    customer_email: input.customerEmail,
    client_reference_id: input.orderId,
    metadata,
    ...(input.recurring
      ? { subscription_data: { metadata } }
      : {
          payment_intent_data: { metadata },
          invoice_creation: { enabled: true, invoice_data: { metadata } },
        }),
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    expires_at: Math.floor(input.expiresAt.getTime() / 1000),
  };
}

/** Stops the renewals of the order's subscription at the end of the paid period. */
export async function cancelAtPeriodEnd({ stripe, call }: StripeAction, order: SubscribedOrder): Promise<void> {
  if (!order.providerSubscriptionId) return;
  await stripe.subscriptions.update(
    order.providerSubscriptionId,
    { cancel_at_period_end: true },
    call({ idempotencyKey: `cancel-${order.id}` }),
  );
}

export async function cancelsAtPeriodEnd({ stripe, call }: StripeAction, order: SubscribedOrder): Promise<boolean> {
  if (!order.providerSubscriptionId) return false;
  const subscription = await stripe.subscriptions.retrieve(order.providerSubscriptionId, {}, call());
  return subscription.cancel_at_period_end === true;
}

type SubscribedOrder = { id: string; providerSubscriptionId: string | null };

/** A new coupon and its code at Stripe. Nothing is undone here: a failure leaves its undo to the caller's step. */
export async function createCoupon(action: StripeAction, promo: PromoCodeForProvider) {
  const providerCouponId = await mirrorCoupon(action, promo.coupon);
  const mirrored = await mirrorPromoCode(action, { ...promo, coupon: { ...promo.coupon, providerCouponId } });
  return { providerCouponId, providerPromoCodeId: mirrored.providerPromoCodeId };
}

async function mirrorCoupon({ stripe, call }: StripeAction, coupon: PromoCodeForProvider['coupon']): Promise<string> {
  const id = stripeCouponId(coupon.id);
  try {
    await stripe.coupons.create(
      {
        id,
        name: coupon.name,
        duration: coupon.duration,
        ...(coupon.duration === 'repeating' && { duration_in_months: coupon.durationInMonths ?? 1 }),
        ...(coupon.percentOff !== null
          ? { percent_off: coupon.percentOff }
          : { amount_off: coupon.amountOffCents ?? 0, currency: coupon.currency }),
        applies_to: { products: coupon.productIds.map(stripeProductId) },
        metadata: { couponId: coupon.id },
      },
      call({ idempotencyKey: `coupon-${coupon.id}` }),
    );
  } catch (error) {
    // Made by an earlier try whose answer was lost, after its idempotency key had expired (24 hours).
    if (!(error instanceof Stripe.errors.StripeError && error.code === 'resource_already_exists')) throw error;
  }
  return id;
}

async function mirrorPromoCode(action: StripeAction, promo: PromoCodeForProvider) {
  const { coupon } = promo;
  const providerCouponId = coupon.providerCouponId ?? (await mirrorCoupon(action, coupon));
  const code = await action.stripe.promotionCodes.create(
    {
      promotion: { type: 'coupon', coupon: providerCouponId },
      code: promo.code,
      ...(promo.maxRedemptions !== null && { max_redemptions: promo.maxRedemptions }),
      ...(promo.expiresAt && { expires_at: Math.floor(promo.expiresAt.getTime() / 1000) }),
      metadata: { promoCodeId: promo.promoCodeId },
    },
    action.call({ idempotencyKey: `promo-${promo.promoCodeId}` }),
  );
  return {
    couponId: coupon.id,
    providerCouponId,
    promoCodeId: promo.promoCodeId,
    providerPromoCodeId: code.id,
  };
}

export async function setPromoCodeActive(
  { stripe, call }: StripeAction,
  providerPromoCodeId: string,
  active: boolean,
  idempotencyKey: string,
): Promise<void> {
  await stripe.promotionCodes.update(providerPromoCodeId, { active }, call({ idempotencyKey }));
}

/** Deletes the coupon at Stripe; one already gone counts as deleted. */
export async function deleteCoupon({ stripe, call }: StripeAction, providerCouponId: string): Promise<void> {
  try {
    await stripe.coupons.del(providerCouponId, {}, call());
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

export async function couponExists({ stripe, call }: StripeAction, providerCouponId: string): Promise<boolean> {
  try {
    await stripe.coupons.retrieve(providerCouponId, {}, call());
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** The invoice, subscription and saved card an event names, asked of Stripe again (events.ts). */
export const rereadsAt = ({ stripe, call }: StripeAction): Rereads => ({
  invoice: (id) => stripe.invoices.retrieve(id, {}, call()),
  subscription: (id) => stripe.subscriptions.retrieve(id, {}, call()),
  setupIntent: (id) => stripe.setupIntents.retrieve(id, { expand: ['payment_method'] }, call()),
});

/**
 * A Checkout Session in setup mode for the customer at Stripe (made at the first card, under an idempotency key of our
 * customer's id): Stripe's own page takes the card, which never reaches the shop.
 */
export async function startCardSetup({ stripe, call }: StripeAction, input: CardSetupInput): Promise<CardSetup> {
  const customer =
    input.providerCustomerId ??
    (
      await stripe.customers.create(
        { email: input.customerEmail, metadata: { userId: input.userId } },
        call({ idempotencyKey: `customer-${input.userId}` }),
      )
    ).id;
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'setup',
      // A card only: top-ups are charged off-session at once, which a bank debit (days in processing) cannot be.
      allowed_payment_method_types: ['card'],
      currency: input.currency,
      customer,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      metadata: { userId: input.userId, purpose: 'top_up_card' },
      setup_intent_data: { metadata: { userId: input.userId } },
    },
    call(),
  );
  if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
  return { setupId: session.id, url: session.url, providerCustomerId: customer };
}

/**
 * An off-session PaymentIntent on the saved card, confirmed at once, under the top-up's idempotency key: asked again
 * (a run that stopped before recording the answer) it answers the same intent, never a second charge. A card the bank
 * declines, or one that needs the customer (3-D Secure), is an outcome, not an error.
 */
export async function chargeSavedCard({ stripe, call }: StripeAction, input: SavedCardCharge): Promise<ChargeOutcome> {
  try {
    const intent = await stripe.paymentIntents.create(
      {
        amount: input.amountCents,
        currency: input.currency,
        ...(input.providerCustomerId && { customer: input.providerCustomerId }),
        payment_method: input.paymentMethodId,
        off_session: true,
        confirm: true,
        description: input.description,
        metadata: { orderId: input.orderId, topUpId: input.topUpId, userId: input.userId },
      },
      call({ idempotencyKey: `top-up-${input.topUpId}` }),
    );
    return chargeOutcomeOf(intent);
  } catch (error) {
    // The same key still in flight elsewhere (another runner asking at once): not an answer about the card.
    if (
      error instanceof Stripe.errors.StripeIdempotencyError ||
      (error as { statusCode?: number }).statusCode === 409
    ) {
      throw new ProviderError('unreachable', PROVIDER_UNREACHABLE, { cause: error });
    }
    if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
    const intent = (error.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
    return { ...refusalOf(error), chargeId: intent?.id ?? null };
  }
}

/** A charge that was on its way (processing), read again by its id. */
export async function chargeStatus({ stripe, call }: StripeAction, chargeId: string): Promise<ChargeOutcome> {
  return chargeOutcomeOf(await stripe.paymentIntents.retrieve(chargeId, {}, call()));
}

export async function detachCard({ stripe, call }: StripeAction, paymentMethodId: string): Promise<void> {
  try {
    await stripe.paymentMethods.detach(paymentMethodId, {}, call());
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}
