import type { ProductId } from '@storefront/contract';
import type Stripe from 'stripe';
import type { PaymentProvider } from './provider.ts';
import {
  cancelAtPeriodEnd,
  cancelsAtPeriodEnd,
  chargeSavedCard,
  chargeStatus,
  couponExists,
  createCoupon,
  deleteCoupon,
  detachCard,
  rereadsAt,
  setPromoCodeActive,
  startCardSetup,
  startCheckout,
  stripeCouponId,
  stripePrices,
} from './stripe/calls.ts';
import { actWithin, createStripeClient } from './stripe/client.ts';
import { paymentEventOf, readingOf, verifiedEvent } from './stripe/events.ts';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** A stand-in for api.stripe.com in tests: its protocol, host and port are given to the SDK. */
  apiUrl: string | undefined;
  pricesCents: Record<ProductId, number>;
  currency: string;
  /** The longest a person waits on Stripe for one action, retries included (STRIPE_TIMEOUT_S; at most 15 s). */
  waitMs: number;
}

/**
 * ARCHITECTURE section 5, Stripe: Checkout Sessions (subscription mode for ISP and PK1, payment mode for residential),
 * idempotency keys on every create, the webhook signature checked on the raw body. The calls to Stripe are in
 * stripe/calls.ts, each action within the person's wait (stripe/client.ts); the reading of its events in
 * stripe/events.ts.
 */
export function createStripeProvider(
  options: StripeProviderOptions,
  stripe = createStripeClient(options.secretKey, options.apiUrl, options.waitMs),
) {
  const act = actWithin(stripe, options.waitMs);
  const prices = stripePrices(act, options);
  const provider: PaymentProvider & { readonly name: 'stripe'; stripe: Stripe } = {
    name: 'stripe',
    stripe,
    prepare: prices.prepare,
    createCheckout: (input) =>
      act('start the checkout', async (action) => startCheckout(action, input, await prices.priceOf(input.productId))),
    cancelAtPeriodEnd: (order) => act('cancel the subscription', (action) => cancelAtPeriodEnd(action, order)),
    cancelsAtPeriodEnd: (order) => act('read the subscription', (action) => cancelsAtPeriodEnd(action, order)),
    createCoupon: (promo) => act('create the coupon', (action) => createCoupon(action, promo)),
    undoCreateCoupon: (couponId) =>
      act('remove the coupon', (action) => deleteCoupon(action, stripeCouponId(couponId))),
    setPromoCodeActive: (providerPromoCodeId, active, idempotencyKey) =>
      act(active ? 'activate the promotion code' : 'deactivate the promotion code', (action) =>
        setPromoCodeActive(action, providerPromoCodeId, active, idempotencyKey),
      ),
    deleteCoupon: (providerCouponId) => act('delete the coupon', (action) => deleteCoupon(action, providerCouponId)),
    couponExists: (providerCouponId) => act('read the coupon', (action) => couponExists(action, providerCouponId)),
    startCardSetup: (input) => act('open the card page', (action) => startCardSetup(action, input)),
    chargeSavedCard: (input) => act('charge the saved card', (action) => chargeSavedCard(action, input)),
    chargeStatus: (chargeId) => act('read the charge', (action) => chargeStatus(action, chargeId)),
    detachCard: (paymentMethodId) => act('remove the card', (action) => detachCard(action, paymentMethodId)),
    async parseWebhook(rawBody, signature) {
      const event = await verifiedEvent(rawBody, signature, options.webhookSecret);
      return act(readingOf(event), (action) => paymentEventOf(event, rereadsAt(action), options.currency));
    },
  };
  return provider;
}
