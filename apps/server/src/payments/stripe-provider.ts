import { PRODUCT_IDS, PRODUCTS, type ProductId } from '@storefront/contract';
import Stripe from 'stripe';
import type { CheckoutInput, CreatedCheckout, PaidInvoice, PaymentEvent, PaymentProvider } from './provider.ts';
import {
  assertWebhookNotFromFuture,
  PROVIDER_UNREACHABLE,
  ProviderError,
  providerRefusal,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookSignatureError,
} from './provider.ts';

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

/** Our products at Stripe have fixed ids, so coupons can name them whatever the price. */
export const stripeProductId = (productId: ProductId) => `storefront_${productId}`;
/** A coupon's id at Stripe is made from ours: a create whose answer was lost can still be found and undone. */
export const stripeCouponId = (couponId: string) => `storefront_coupon_${couponId}`;
/** A price is found by lookup key; a new unit price in the configuration gets a new key, hence a new price. */
export const stripeLookupKey = (productId: ProductId, unitCents: number, currency: string) =>
  `storefront_${productId}_${currency}_${unitCents}`;

const PAID_CHECKOUT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/** One try of a call gets this part of the wait, so that a try and its one retry fit in it. */
const TRY_SHARE = 0.4;
const MIN_TRY_MS = 1000;
/** The first retry's pause (the SDK's initial back-off, 0.5 s) and a margin. */
const RETRY_PAUSE_MS = 1000;

export function createStripeClient(secretKey: string, apiUrl: string | undefined, waitMs: number): Stripe {
  const url = apiUrl ? new URL(apiUrl) : undefined;
  // Each call passes its own timeout and retries from what is left of the action's wait (`within` below).
  return new Stripe(secretKey, {
    maxNetworkRetries: 1,
    timeout: Math.max(MIN_TRY_MS, Math.floor(waitMs * TRY_SHARE)),
    ...(url && {
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

/**
 * ARCHITECTURE section 5, Stripe: Checkout Sessions (subscription mode for ISP and PK1, payment mode for residential),
 * idempotency keys on every create, the webhook signature checked on the raw body.
 */
export function createStripeProvider(
  options: StripeProviderOptions,
  stripe = createStripeClient(options.secretKey, options.apiUrl, options.waitMs),
) {
  const priceIds = new Map<ProductId, string>();
  let preparing: Promise<void> | undefined;
  const { waitMs } = options;
  const tryMs = Math.max(MIN_TRY_MS, Math.floor(waitMs * TRY_SHARE));

  /**
   * Runs one action at Stripe (one or more calls) within `waitMs` in all, and turns whatever goes wrong into a
   * ProviderError. Each call takes its timeout and retries from `call()`, which gives what is left of the wait; the
   * wait is also enforced as a whole, so that no person waits longer whatever the SDK does.
   */
  async function within<T>(
    what: string,
    run: (call: (extra?: Stripe.RequestOptions) => Stripe.RequestOptions) => Promise<T>,
  ) {
    const deadline = Date.now() + waitMs;
    const call = (extra: Stripe.RequestOptions = {}): Stripe.RequestOptions => {
      const left = deadline - Date.now();
      if (left < 100) throw new ProviderError('unreachable', PROVIDER_UNREACHABLE);
      const timeout = Math.min(tryMs, left);
      return { ...extra, timeout, maxNetworkRetries: left >= 2 * timeout + RETRY_PAUSE_MS ? 1 : 0 };
    };
    let timer: NodeJS.Timeout | undefined;
    const work = run(call);
    // The losing side of the race below must not end as an unhandled rejection.
    work.catch(() => {});
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProviderError('unreachable', PROVIDER_UNREACHABLE)), waitMs);
    });
    try {
      return await Promise.race([work, late]);
    } catch (error) {
      throw providerErrorOf(what, error);
    } finally {
      clearTimeout(timer);
    }
  }

  type Call = (extra?: Stripe.RequestOptions) => Stripe.RequestOptions;

  async function ensureProduct(call: Call, productId: ProductId) {
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

  async function loadPrices(call: Call) {
    const keys = PRODUCT_IDS.map((id) => stripeLookupKey(id, options.pricesCents[id], options.currency));
    const found = await stripe.prices.list({ lookup_keys: keys, active: true, limit: 10 }, call());
    for (const productId of PRODUCT_IDS) {
      const key = stripeLookupKey(productId, options.pricesCents[productId], options.currency);
      let price = found.data.find((candidate) => candidate.lookup_key === key);
      if (!price) {
        await ensureProduct(call, productId);
        price = await stripe.prices.create(
          {
            product: stripeProductId(productId),
            currency: options.currency,
            unit_amount: options.pricesCents[productId],
            lookup_key: key,
            nickname: PRODUCTS[productId].label,
            ...(PRODUCTS[productId].unit === 'ip_month' && { recurring: { interval: 'month' as const } }),
          },
          call({ idempotencyKey: `price-${key}` }),
        );
      }
      priceIds.set(productId, price.id);
    }
  }

  /** Once per process; a failure (Stripe unreachable) is retried by the next checkout. */
  function prepare(): Promise<void> {
    preparing ??= within('load the prices', loadPrices).catch((error: unknown) => {
      preparing = undefined;
      throw error;
    });
    return preparing;
  }

  async function mirrorCoupon(call: Call, coupon: NonNullable<CheckoutInput['promoCode']>['coupon']): Promise<string> {
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

  async function mirrorPromoCode(call: Call, promo: NonNullable<CheckoutInput['promoCode']>) {
    const { coupon } = promo;
    const providerCouponId = coupon.providerCouponId ?? (await mirrorCoupon(call, coupon));
    const code = await stripe.promotionCodes.create(
      {
        promotion: { type: 'coupon', coupon: providerCouponId },
        code: promo.code,
        ...(promo.maxRedemptions !== null && { max_redemptions: promo.maxRedemptions }),
        ...(promo.expiresAt && { expires_at: Math.floor(promo.expiresAt.getTime() / 1000) }),
        metadata: { promoCodeId: promo.promoCodeId },
      },
      call({ idempotencyKey: `promo-${promo.promoCodeId}` }),
    );
    return {
      couponId: coupon.id,
      providerCouponId,
      promoCodeId: promo.promoCodeId,
      providerPromoCodeId: code.id,
    };
  }

  async function paidInvoiceOf(
    call: Call,
    session: Stripe.Checkout.Session,
    eventCreated: number,
  ): Promise<PaidInvoice> {
    const invoiceId = typeof session.invoice === 'string' ? session.invoice : session.invoice?.id;
    if (!invoiceId) {
      return {
        id: session.id,
        hostedUrl: null,
        amountCents: session.amount_total ?? 0,
        discountCents: session.total_details?.amount_discount ?? 0,
        currency: session.currency ?? options.currency,
        paidAt: new Date(eventCreated * 1000),
      };
    }
    const invoice = await stripe.invoices.retrieve(invoiceId, {}, call());
    return paidInvoiceFrom(invoice, eventCreated);
  }

  function paidInvoiceFrom(invoice: Stripe.Invoice, eventCreated: number): PaidInvoice {
    return {
      id: invoice.id ?? '',
      hostedUrl: invoice.hosted_invoice_url ?? null,
      amountCents: invoice.amount_paid,
      discountCents: (invoice.total_discount_amounts ?? []).reduce((sum, discount) => sum + discount.amount, 0),
      currency: invoice.currency,
      paidAt: new Date((invoice.status_transitions?.paid_at ?? eventCreated) * 1000),
    };
  }

  /** The subscription and our order id an invoice belongs to (API 2025+: under parent.subscription_details). */
  function subscriptionOfInvoice(invoice: Stripe.Invoice) {
    const details = invoice.parent?.subscription_details;
    const subscription = details?.subscription;
    return {
      subscriptionId: typeof subscription === 'string' ? subscription : (subscription?.id ?? null),
      orderId: details?.metadata?.orderId ?? invoice.metadata?.orderId ?? null,
    };
  }

  /** Renewals, failed renewals and the end or cancellation of subscriptions (the renewals issue). */
  async function lifecycleEvent(call: Call, event: Stripe.Event): Promise<PaymentEvent> {
    const base = { eventId: event.id, type: event.type };
    if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
      const invoice = event.data.object as Stripe.Invoice;
      const { subscriptionId, orderId } = subscriptionOfInvoice(invoice);
      // The first invoice of a subscription is the checkout's: its session's events deliver the order.
      if (!subscriptionId || invoice.billing_reason === 'subscription_create') return { kind: 'ignored', ...base };
      if (event.type === 'invoice.payment_failed') {
        return {
          kind: 'renewal.failed',
          ...base,
          orderId,
          subscriptionId,
          payUrl: invoice.hosted_invoice_url ?? null,
          invoiceId: invoice.id ?? null,
        };
      }
      const fresh = invoice.id ? await stripe.invoices.retrieve(invoice.id, {}, call()) : invoice;
      return {
        kind: 'renewal.paid',
        ...base,
        orderId,
        subscriptionId,
        invoice: paidInvoiceFrom(fresh, event.created),
        periodEnd: await periodEndOf(call, subscriptionId),
      };
    }
    if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
      const subscription = event.data.object as Stripe.Subscription;
      const orderId = subscription.metadata?.orderId ?? null;
      if (event.type === 'customer.subscription.deleted' || subscription.status === 'canceled') {
        const endedAt = subscription.ended_at ?? subscription.canceled_at ?? event.created;
        return {
          kind: 'subscription.ended',
          ...base,
          orderId,
          subscriptionId: subscription.id,
          endedAt: new Date(endedAt * 1000),
        };
      }
      const end = subscription.items?.data[0]?.current_period_end;
      return {
        kind: 'subscription.updated',
        ...base,
        orderId,
        subscriptionId: subscription.id,
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
        periodEnd: end ? new Date(end * 1000) : null,
      };
    }
    return { kind: 'ignored', ...base };
  }

  async function periodEndOf(call: Call, subscriptionId: string | null): Promise<Date | null> {
    if (!subscriptionId) return null;
    const subscription = await stripe.subscriptions.retrieve(subscriptionId, {}, call());
    const end = subscription.items.data[0]?.current_period_end;
    return end ? new Date(end * 1000) : null;
  }

  async function deleteIfThere(call: Call, providerCouponId: string) {
    try {
      await stripe.coupons.del(providerCouponId, {}, call());
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  const provider: PaymentProvider & { readonly name: 'stripe'; stripe: Stripe } = {
    name: 'stripe',
    stripe,
    prepare,

    createCheckout: (input): Promise<CreatedCheckout> =>
      within('start the checkout', async (call) => {
        await prepare();
        const price = priceIds.get(input.productId);
        if (!price) throw new Error(`No Stripe price for ${input.productId}`);
        const mirrored =
          input.promoCode && !input.promoCode.providerPromoCodeId
            ? await mirrorPromoCode(call, input.promoCode)
            : undefined;
        const promotionCode = mirrored?.providerPromoCodeId ?? input.promoCode?.providerPromoCodeId ?? undefined;
        const metadata = { orderId: input.orderId, userId: input.userId, productId: input.productId };
        const session = await stripe.checkout.sessions.create(
          {
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
          },
          call({ idempotencyKey: `checkout-${input.orderId}` }),
        );
        if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
        return { checkoutId: session.id, url: session.url, ...(mirrored && { mirrored }) };
      }),

    cancelAtPeriodEnd: (order) =>
      within('cancel the subscription', async (call) => {
        if (!order.providerSubscriptionId) return;
        await stripe.subscriptions.update(
          order.providerSubscriptionId,
          { cancel_at_period_end: true },
          call({ idempotencyKey: `cancel-${order.id}` }),
        );
      }),

    cancelsAtPeriodEnd: (order) =>
      within('read the subscription', async (call) => {
        if (!order.providerSubscriptionId) return false;
        const subscription = await stripe.subscriptions.retrieve(order.providerSubscriptionId, {}, call());
        return subscription.cancel_at_period_end === true;
      }),

    createCoupon: (promo) =>
      within('create the coupon', async (call) => {
        // Nothing is undone here: a failure leaves its undo to the caller's recorded step (undoCreateCoupon).
        const providerCouponId = await mirrorCoupon(call, promo.coupon);
        const mirrored = await mirrorPromoCode(call, { ...promo, coupon: { ...promo.coupon, providerCouponId } });
        return { providerCouponId, providerPromoCodeId: mirrored.providerPromoCodeId };
      }),

    undoCreateCoupon: (couponId) =>
      within('remove the coupon', async (call) => {
        await deleteIfThere(call, stripeCouponId(couponId));
      }),

    setPromoCodeActive: (providerPromoCodeId, active, idempotencyKey) =>
      within(active ? 'activate the promotion code' : 'deactivate the promotion code', async (call) => {
        await stripe.promotionCodes.update(providerPromoCodeId, { active }, call({ idempotencyKey }));
      }),

    deleteCoupon: (providerCouponId) =>
      within('delete the coupon', async (call) => {
        await deleteIfThere(call, providerCouponId);
      }),

    couponExists: (providerCouponId) =>
      within('read the coupon', async (call) => {
        try {
          await stripe.coupons.retrieve(providerCouponId, {}, call());
          return true;
        } catch (error) {
          if (isMissing(error)) return false;
          throw error;
        }
      }),

    async parseWebhook(rawBody, signature): Promise<PaymentEvent> {
      let event: Stripe.Event;
      assertWebhookNotFromFuture(signature);
      try {
        event = await stripe.webhooks.constructEventAsync(
          rawBody,
          signature ?? '',
          options.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        );
      } catch {
        throw new WebhookSignatureError();
      }
      if (!PAID_CHECKOUT_EVENTS.has(event.type)) return within('read the event', (call) => lifecycleEvent(call, event));
      const session = event.data.object as Stripe.Checkout.Session;
      const orderId = session.metadata?.orderId ?? session.client_reference_id;
      if (!orderId || (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required')) {
        return { kind: 'ignored', eventId: event.id, type: event.type };
      }
      // Re-read the invoice and subscription rather than trust what the event carried.
      const subscriptionId =
        typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
      const [invoice, periodEnd] = await within('read the payment', (call) =>
        Promise.all([paidInvoiceOf(call, session, event.created), periodEndOf(call, subscriptionId)]),
      );
      return {
        kind: 'checkout.paid',
        eventId: event.id,
        type: event.type,
        orderId,
        invoice,
        customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
        subscriptionId,
        customerId: typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null),
        periodEnd,
      };
    },
  };
  return provider;
}

const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError &&
  (error.statusCode === 404 || error.code === 'resource_missing');

/**
 * What a failed call means for the person waiting: Stripe said no to the request (a 4xx about what we asked: its code,
 * such as "amount too large", is safe to show; its message may quote our data and is only logged), or Stripe could not
 * be reached, timed out, failed on its side, limited our rate, or refused our key (the shop's own configuration, which
 * the person cannot change).
 */
function providerErrorOf(what: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (
    error instanceof Stripe.errors.StripeError &&
    error.statusCode !== undefined &&
    error.statusCode >= 400 &&
    error.statusCode < 500 &&
    ![401, 403, 429].includes(error.statusCode)
  ) {
    return providerRefusal(what, error.code, error);
  }
  return new ProviderError('unreachable', PROVIDER_UNREACHABLE, { cause: error });
}
