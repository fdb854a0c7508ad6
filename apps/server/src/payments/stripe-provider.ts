import { PRODUCT_IDS, PRODUCTS, type ProductId } from '@storefront/contract';
import Stripe from 'stripe';
import type { CheckoutInput, CreatedCheckout, PaidInvoice, PaymentEvent, PaymentProvider } from './provider.ts';
import { assertWebhookNotFromFuture, WEBHOOK_TOLERANCE_SECONDS, WebhookSignatureError } from './provider.ts';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** A stand-in for api.stripe.com in tests: its protocol, host and port are given to the SDK. */
  apiUrl: string | undefined;
  pricesCents: Record<ProductId, number>;
  currency: string;
}

/** Our products at Stripe have fixed ids, so coupons can name them whatever the price. */
export const stripeProductId = (productId: ProductId) => `storefront_${productId}`;
/** A price is found by lookup key; a new unit price in the configuration gets a new key, hence a new price. */
export const stripeLookupKey = (productId: ProductId, unitCents: number, currency: string) =>
  `storefront_${productId}_${currency}_${unitCents}`;

const PAID_CHECKOUT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

export function createStripeClient(secretKey: string, apiUrl: string | undefined): Stripe {
  const url = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
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
  stripe = createStripeClient(options.secretKey, options.apiUrl),
) {
  const priceIds = new Map<ProductId, string>();
  let preparing: Promise<void> | undefined;

  async function ensureProduct(productId: ProductId) {
    try {
      await stripe.products.retrieve(stripeProductId(productId));
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.statusCode !== 404) throw error;
      await stripe.products.create(
        {
          id: stripeProductId(productId),
          name: PRODUCTS[productId].label,
          description: PRODUCTS[productId].description,
        },
        { idempotencyKey: `product-${productId}` },
      );
    }
  }

  async function loadPrices() {
    const keys = PRODUCT_IDS.map((id) => stripeLookupKey(id, options.pricesCents[id], options.currency));
    const found = await stripe.prices.list({ lookup_keys: keys, active: true, limit: 10 });
    for (const productId of PRODUCT_IDS) {
      const key = stripeLookupKey(productId, options.pricesCents[productId], options.currency);
      let price = found.data.find((candidate) => candidate.lookup_key === key);
      if (!price) {
        await ensureProduct(productId);
        price = await stripe.prices.create(
          {
            product: stripeProductId(productId),
            currency: options.currency,
            unit_amount: options.pricesCents[productId],
            lookup_key: key,
            nickname: PRODUCTS[productId].label,
            ...(PRODUCTS[productId].unit === 'ip_month' && { recurring: { interval: 'month' as const } }),
          },
          { idempotencyKey: `price-${key}` },
        );
      }
      priceIds.set(productId, price.id);
    }
  }

  /** Once per process; a failure (Stripe unreachable) is retried by the next checkout. */
  function prepare(): Promise<void> {
    preparing ??= loadPrices().catch((error: unknown) => {
      preparing = undefined;
      throw error;
    });
    return preparing;
  }

  async function mirrorCoupon(coupon: NonNullable<CheckoutInput['promoCode']>['coupon']): Promise<string> {
    const created = await stripe.coupons.create(
      {
        name: coupon.name,
        duration: coupon.duration,
        ...(coupon.duration === 'repeating' && { duration_in_months: coupon.durationInMonths ?? 1 }),
        ...(coupon.percentOff !== null
          ? { percent_off: coupon.percentOff }
          : { amount_off: coupon.amountOffCents ?? 0, currency: coupon.currency }),
        applies_to: { products: coupon.productIds.map(stripeProductId) },
        metadata: { couponId: coupon.id },
      },
      { idempotencyKey: `coupon-${coupon.id}` },
    );
    return created.id;
  }

  async function mirrorPromoCode(promo: NonNullable<CheckoutInput['promoCode']>) {
    const { coupon } = promo;
    const providerCouponId = coupon.providerCouponId ?? (await mirrorCoupon(coupon));
    const code = await stripe.promotionCodes.create(
      {
        promotion: { type: 'coupon', coupon: providerCouponId },
        code: promo.code,
        ...(promo.maxRedemptions !== null && { max_redemptions: promo.maxRedemptions }),
        ...(promo.expiresAt && { expires_at: Math.floor(promo.expiresAt.getTime() / 1000) }),
        metadata: { promoCodeId: promo.promoCodeId },
      },
      { idempotencyKey: `promo-${promo.promoCodeId}` },
    );
    return {
      couponId: coupon.id,
      providerCouponId,
      promoCodeId: promo.promoCodeId,
      providerPromoCodeId: code.id,
    };
  }

  async function paidInvoiceOf(session: Stripe.Checkout.Session, eventCreated: number): Promise<PaidInvoice> {
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
    const invoice = await stripe.invoices.retrieve(invoiceId);
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
  async function lifecycleEvent(event: Stripe.Event): Promise<PaymentEvent> {
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
      const fresh = invoice.id ? await stripe.invoices.retrieve(invoice.id) : invoice;
      return {
        kind: 'renewal.paid',
        ...base,
        orderId,
        subscriptionId,
        invoice: paidInvoiceFrom(fresh, event.created),
        periodEnd: await periodEndOf(subscriptionId),
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

  async function periodEndOf(subscriptionId: string | null): Promise<Date | null> {
    if (!subscriptionId) return null;
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const end = subscription.items.data[0]?.current_period_end;
    return end ? new Date(end * 1000) : null;
  }

  const provider: PaymentProvider & { readonly name: 'stripe'; stripe: Stripe } = {
    name: 'stripe',
    stripe,
    prepare,

    async createCheckout(input): Promise<CreatedCheckout> {
      await prepare();
      const price = priceIds.get(input.productId);
      if (!price) throw new Error(`No Stripe price for ${input.productId}`);
      const mirrored =
        input.promoCode && !input.promoCode.providerPromoCodeId ? await mirrorPromoCode(input.promoCode) : undefined;
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
        { idempotencyKey: `checkout-${input.orderId}` },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { checkoutId: session.id, url: session.url, ...(mirrored && { mirrored }) };
    },

    async cancelAtPeriodEnd(order) {
      if (!order.providerSubscriptionId) return;
      await stripe.subscriptions.update(
        order.providerSubscriptionId,
        { cancel_at_period_end: true },
        { idempotencyKey: `cancel-${order.id}` },
      );
    },

    async createCoupon(promo) {
      const created = await mirrorCoupon(promo.coupon);
      try {
        const mirrored = await mirrorPromoCode({ ...promo, coupon: { ...promo.coupon, providerCouponId: created } });
        return { providerCouponId: created, providerPromoCodeId: mirrored.providerPromoCodeId };
      } catch (error) {
        // No coupon left at Stripe without its code: the shop rolls its own copy back too.
        await stripe.coupons.del(created).catch(() => {});
        throw error;
      }
    },

    async setPromoCodeActive(providerPromoCodeId, active) {
      await stripe.promotionCodes.update(providerPromoCodeId, { active });
    },

    async deleteCoupon(providerCouponId) {
      await stripe.coupons.del(providerCouponId);
    },

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
      if (!PAID_CHECKOUT_EVENTS.has(event.type)) return lifecycleEvent(event);
      const session = event.data.object as Stripe.Checkout.Session;
      const orderId = session.metadata?.orderId ?? session.client_reference_id;
      if (!orderId || (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required')) {
        return { kind: 'ignored', eventId: event.id, type: event.type };
      }
      // Re-read the invoice and subscription rather than trust what the event carried.
      const subscriptionId =
        typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
      const [invoice, periodEnd] = await Promise.all([
        paidInvoiceOf(session, event.created),
        periodEndOf(subscriptionId),
      ]);
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
