import type { ProductId } from '@storefront/contract';
import { AppError } from '../errors.ts';

export type ProviderName = 'sandbox' | 'stripe';

/**
 * How long a checkout's payment page can be paid (Stripe's Checkout Session `expires_at`, the sandbox's page alike). A
 * checkout holds its coupon's use for this long (coupons.ts), so the two must be the same number. Stripe takes 30 minutes
 * to 24 hours; one hour keeps an abandoned checkout from holding a code's last use for a day.
 */
export const CHECKOUT_PAYABLE_MS = 60 * 60_000;

/** What a checkout asks the provider for: one order, one line, an optional promo code. */
export interface CheckoutInput {
  orderId: string;
  userId: string;
  customerEmail: string;
  productId: ProductId;
  productName: string;
  quantity: number;
  unitPriceCents: number;
  currency: string;
  /** Monthly subscription (ISP, PK1) or a one-off payment (residential data). */
  recurring: boolean;
  promoCode: PromoCodeForProvider | undefined;
  successUrl: string;
  cancelUrl: string;
  /** When the payment page stops taking payments: the order's creation plus CHECKOUT_PAYABLE_MS. */
  expiresAt: Date;
}

/** A promo code as a provider needs it to mirror the coupon on its side. */
export interface PromoCodeForProvider {
  promoCodeId: string;
  code: string;
  providerPromoCodeId: string | null;
  maxRedemptions: number | null;
  expiresAt: Date | null;
  coupon: {
    id: string;
    name: string;
    percentOff: number | null;
    amountOffCents: number | null;
    currency: string;
    duration: 'once' | 'repeating' | 'forever';
    durationInMonths: number | null;
    providerCouponId: string | null;
    productIds: ProductId[];
  };
}

export interface CreatedCheckout {
  checkoutId: string;
  url: string;
  /** Set when the provider mirrored the promo code just now: kept so the next checkout reuses it. */
  mirrored?: { couponId: string; providerCouponId: string; promoCodeId: string; providerPromoCodeId: string };
}

/** What opening a card page asks the provider for: a page where the customer saves a card for automatic top-ups. */
export interface CardSetupInput {
  userId: string;
  customerEmail: string;
  /** The customer at the provider, when a card was saved before (Stripe reuses it). */
  providerCustomerId: string | null;
  currency: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CardSetup {
  setupId: string;
  url: string;
  providerCustomerId: string | null;
}

/** An off-session charge of a saved card: one automatic top-up, charged once per `topUpId` whoever asks again. */
export interface SavedCardCharge {
  topUpId: string;
  orderId: string;
  userId: string;
  providerCustomerId: string | null;
  paymentMethodId: string;
  amountCents: number;
  currency: string;
  description: string;
}

/**
 * A charge's outcome: paid, refused (in words safe to show), or still on its way (its webhook will tell), with the
 * provider's id of the charge when it made one (asked again by that id, never made again).
 */
export type ChargeOutcome = { chargeId: string | null } & (
  | { status: 'paid'; invoice: PaidInvoice }
  | { status: 'failed' | 'needs_action'; message: string }
  | { status: 'pending' }
);

/** An invoice as the order history keeps it. */
export interface PaidInvoice {
  id: string;
  hostedUrl: string | null;
  amountCents: number;
  discountCents: number;
  currency: string;
  paidAt: Date;
}

/**
 * The product's own events, whatever the provider: the one code path after the provider. Events the product does not act
 * on are still recorded by id ('ignored').
 */
export type PaymentEvent =
  | {
      kind: 'checkout.paid';
      eventId: string;
      type: string;
      orderId: string;
      invoice: PaidInvoice;
      customerEmail: string | null;
      subscriptionId: string | null;
      customerId: string | null;
      /** End of the first paid period as the provider counts it (subscriptions). */
      periodEnd: Date | null;
    }
  | {
      /** A later period of a subscription was paid (Stripe's invoice.paid, the sandbox's charge at period end). */
      kind: 'renewal.paid';
      eventId: string;
      type: string;
      orderId: string | null;
      subscriptionId: string | null;
      invoice: PaidInvoice;
      periodEnd: Date | null;
    }
  | {
      kind: 'renewal.failed';
      eventId: string;
      type: string;
      orderId: string | null;
      subscriptionId: string | null;
      /** Where the customer can pay or update the card (Stripe's hosted invoice, the sandbox's billing page). */
      payUrl: string | null;
      /** The invoice that failed: once it is paid, a late report of its failure changes nothing. */
      invoiceId: string | null;
    }
  | {
      /** The customer or an operator set or cleared cancel-at-period-end at the provider. */
      kind: 'subscription.updated';
      eventId: string;
      type: string;
      orderId: string | null;
      subscriptionId: string | null;
      cancelAtPeriodEnd: boolean;
      periodEnd: Date | null;
    }
  | {
      kind: 'subscription.ended';
      eventId: string;
      type: string;
      orderId: string | null;
      subscriptionId: string | null;
      endedAt: Date;
    }
  | {
      /** An automatic top-up's charge was paid (Stripe's payment_intent.succeeded, or the charge's own answer). */
      kind: 'top_up.paid';
      eventId: string;
      type: string;
      topUpId: string;
      invoice: PaidInvoice;
      /** The provider's charge (a PaymentIntent), kept with the top-up. */
      chargeId: string | null;
    }
  | {
      kind: 'top_up.failed';
      eventId: string;
      type: string;
      topUpId: string;
      needsAction: boolean;
      message: string;
      chargeId: string | null;
    }
  | {
      /** A card was saved on a card page (Stripe's setup-mode Checkout Session completed, or the sandbox's page). */
      kind: 'card.saved';
      eventId: string;
      type: string;
      setupId: string;
      userId: string;
      providerCustomerId: string | null;
      paymentMethodId: string;
      label: string;
    }
  | { kind: 'ignored'; eventId: string; type: string };

export class WebhookSignatureError extends Error {
  constructor(message = 'The webhook signature is not valid.') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** How far a webhook's signed time may be from ours, either way (Stripe's own default, 5 minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Both providers sign `t=<unix seconds>,v1=<hmac>`. Stripe's library refuses a time too far in the past but takes any
 * time in the future, which would let a captured event be replayed for as long as its time lies ahead: refuse that too.
 */
export function assertWebhookNotFromFuture(signature: string | undefined, nowMs: number = Date.now()): void {
  const signedAt = /(?:^|,)\s*t=(\d+)/.exec(signature ?? '')?.[1];
  if (signedAt !== undefined && Number(signedAt) > nowMs / 1000 + WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError('The webhook signature is dated more than 5 minutes in the future.');
  }
}

/** Words shown when the provider could not be reached or did not answer in time. */
export const PROVIDER_UNREACHABLE =
  'The payment provider could not be reached. Nothing was changed; try again in a minute.';

/**
 * The one error a provider throws, mapped to HTTP once (errors.ts, through AppError): `refused` when the provider
 * answered no (400, naming what was refused in words safe to show), `unreachable` when it could not be reached, timed
 * out, or is not working for us (503). The provider's own error stays in `cause`, for the log only.
 */
export class ProviderError extends AppError {
  readonly kind: 'refused' | 'unreachable';
  constructor(kind: 'refused' | 'unreachable', message: string, options?: { cause?: unknown }) {
    super(kind === 'refused' ? 'BAD_REQUEST' : 'UNAVAILABLE', message);
    this.name = 'ProviderError';
    this.kind = kind;
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

/** The refusal of `what` ("create the coupon"), with the provider's reason code in words ("amount too large"). */
export function providerRefusal(what: string, reason: string | undefined, cause?: unknown): ProviderError {
  const words = reason ? ` (${reason.replaceAll('_', ' ')})` : '';
  return new ProviderError('refused', `The payment provider refused to ${what}${words}. Nothing was changed.`, {
    cause,
  });
}

/** ARCHITECTURE section 5: one interface, two providers. Every method throws ProviderError only. */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** Creates or finds what the provider needs before the first checkout (Stripe prices by lookup key). */
  prepare(): Promise<void>;
  createCheckout(input: CheckoutInput): Promise<CreatedCheckout>;
  /** Stops the renewals of an order's subscription; the order stays active until the end of the paid period. */
  cancelAtPeriodEnd(order: { id: string; providerSubscriptionId: string | null }): Promise<void>;
  /** Whether the order's subscription stops at the end of its period, as the provider has it now. */
  cancelsAtPeriodEnd(order: { id: string; providerSubscriptionId: string | null }): Promise<boolean>;
  /** Verifies the signature on the raw body and turns the provider's event into the product's event. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent>;
  /**
   * Creates a new coupon and its code at the provider (Stripe, under an id made from ours, so that `undoCreateCoupon`
   * finds it even when the answer was lost); the sandbox keeps no copy and answers nulls.
   */
  createCoupon(
    promo: PromoCodeForProvider,
  ): Promise<{ providerCouponId: string | null; providerPromoCodeId: string | null }>;
  /** Removes whatever `createCoupon` may have made for our coupon `couponId`; nothing there is fine. */
  undoCreateCoupon(couponId: string): Promise<void>;
  /** Switches a code on or off at the provider; `idempotencyKey` names this one request (a step's, not the code's). */
  setPromoCodeActive(providerPromoCodeId: string, active: boolean, idempotencyKey: string): Promise<void>;
  /** Deletes a coupon at the provider (its codes stop working there); one already gone counts as deleted. */
  deleteCoupon(providerCouponId: string): Promise<void>;
  /** Whether the provider still has this coupon. */
  couponExists(providerCouponId: string): Promise<boolean>;
  /** Opens the provider's page where the customer saves a card for automatic top-ups (setup mode at Stripe). */
  startCardSetup(input: CardSetupInput): Promise<CardSetup>;
  /** Charges a saved card without the customer present; asking again for the same top-up charges nothing more. */
  chargeSavedCard(input: SavedCardCharge): Promise<ChargeOutcome>;
  /** Where a charge that was on its way stands now. */
  chargeStatus(chargeId: string): Promise<ChargeOutcome>;
  /** Forgets a saved card at the provider; one already gone counts as forgotten. */
  detachCard(paymentMethodId: string): Promise<void>;
}
