import { topUpMessages } from '@storefront/contract';
import Stripe from 'stripe';
import type { ChargeOutcome, PaidInvoice, PaymentEvent } from '../provider.ts';
import { assertWebhookNotFromFuture, WEBHOOK_TOLERANCE_SECONDS, WebhookSignatureError } from '../provider.ts';

const PAID_CHECKOUT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/**
 * The event Stripe sent, its signature checked on the raw body; anything else is a WebhookSignatureError, a signature
 * dated ahead of ours too (provider.ts).
 */
export async function verifiedEvent(
  rawBody: Buffer,
  signature: string | undefined,
  webhookSecret: string,
): Promise<Stripe.Event> {
  assertWebhookNotFromFuture(signature);
  try {
    return await Stripe.webhooks.constructEventAsync(
      rawBody,
      signature ?? '',
      webhookSecret,
      WEBHOOK_TOLERANCE_SECONDS,
    );
  } catch {
    throw new WebhookSignatureError();
  }
}

/**
 * What an event's reading asks Stripe for: the invoice and the subscription it names are read again rather than trusted
 * as the event carried them.
 */
export interface Rereads {
  invoice(id: string): Promise<Stripe.Invoice>;
  subscription(id: string): Promise<Stripe.Subscription>;
  /** With its payment method expanded: the card's brand and last digits. */
  setupIntent(id: string): Promise<Stripe.SetupIntent>;
}

/** What reading the event does at Stripe, in the words of a refusal ("The payment provider refused to read the payment"). */
export const readingOf = (event: Stripe.Event) =>
  PAID_CHECKOUT_EVENTS.has(event.type) ? 'read the payment' : 'read the event';

/**
 * Stripe's event as the product's own (provider.ts): a paid checkout, a renewal paid or failed, a subscription updated
 * or ended; any other event, and those that concern no renewal, are 'ignored'.
 */
export async function paymentEventOf(event: Stripe.Event, rereads: Rereads, currency: string): Promise<PaymentEvent> {
  if (event.type === 'checkout.session.completed' && (event.data.object as Stripe.Checkout.Session).mode === 'setup') {
    return cardSavedEvent(event, rereads);
  }
  if (PAID_CHECKOUT_EVENTS.has(event.type)) return checkoutEvent(event, rereads, currency);
  if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
    return topUpEvent(event);
  }
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') return invoiceEvent(event, rereads);
  if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    return subscriptionEvent(event);
  }
  return ignored(event);
}

const ignored = (event: Stripe.Event): PaymentEvent => ({ kind: 'ignored', eventId: event.id, type: event.type });

const idOf = (value: string | { id?: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** A Checkout Session paid (at once, or later for a delayed method): its order is delivered. */
async function checkoutEvent(event: Stripe.Event, rereads: Rereads, currency: string): Promise<PaymentEvent> {
  const session = event.data.object as Stripe.Checkout.Session;
  const orderId = session.metadata?.orderId ?? session.client_reference_id;
  if (!orderId || (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required')) {
    return ignored(event);
  }
  const subscriptionId = idOf(session.subscription);
  const invoiceId = idOf(session.invoice);
  const [invoice, periodEnd] = await Promise.all([
    invoiceId
      ? rereads.invoice(invoiceId).then((fresh) => paidInvoiceFrom(fresh, event.created))
      : sessionInvoice(session, event.created, currency),
    periodEndOf(rereads, subscriptionId),
  ]);
  return {
    kind: 'checkout.paid',
    eventId: event.id,
    type: event.type,
    orderId,
    invoice,
    customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
    subscriptionId,
    customerId: idOf(session.customer),
    periodEnd,
  };
}

/** A card saved on a setup-mode Checkout Session opened for automatic top-up: the card as Stripe has it now. */
async function cardSavedEvent(event: Stripe.Event, rereads: Rereads): Promise<PaymentEvent> {
  const session = event.data.object as Stripe.Checkout.Session;
  const userId = session.metadata?.userId;
  const setupIntentId = idOf(session.setup_intent);
  if (session.metadata?.purpose !== 'top_up_card' || !userId || !setupIntentId) return ignored(event);
  const intent = await rereads.setupIntent(setupIntentId);
  const method = intent.payment_method;
  if (intent.status !== 'succeeded' || !method) return ignored(event);
  const card = typeof method === 'string' ? undefined : method.card;
  const brand = card?.display_brand ?? card?.brand;
  return {
    kind: 'card.saved',
    eventId: event.id,
    type: event.type,
    setupId: session.id,
    userId,
    providerCustomerId: idOf(session.customer) ?? idOf(intent.customer),
    paymentMethodId: idOf(method) ?? '',
    label: card
      ? `${brand ? brand.charAt(0).toUpperCase() + brand.slice(1).replaceAll('_', ' ') : 'Card'} •••• ${card.last4}`
      : 'Saved payment method',
  };
}

/** The outcome of an automatic top-up's charge, as its PaymentIntent tells it (the charge's own answer may be lost). */
function topUpEvent(event: Stripe.Event): PaymentEvent {
  const intent = event.data.object as Stripe.PaymentIntent;
  const topUpId = intent.metadata?.topUpId;
  if (!topUpId) return ignored(event);
  const outcome = chargeOutcomeOf(intent);
  if (outcome.status === 'paid') {
    return {
      kind: 'top_up.paid',
      eventId: event.id,
      type: event.type,
      topUpId,
      invoice: outcome.invoice,
      chargeId: intent.id,
    };
  }
  if (outcome.status === 'pending') return ignored(event);
  return {
    kind: 'top_up.failed',
    eventId: event.id,
    type: event.type,
    topUpId,
    needsAction: outcome.status === 'needs_action',
    message: outcome.message,
    chargeId: intent.id,
  };
}

/** Renewals and failed renewals; the first invoice of a subscription is the checkout's, delivered by its session. */
async function invoiceEvent(event: Stripe.Event, rereads: Rereads): Promise<PaymentEvent> {
  const invoice = event.data.object as Stripe.Invoice;
  const { subscriptionId, orderId } = subscriptionOfInvoice(invoice);
  if (!subscriptionId || invoice.billing_reason === 'subscription_create') return ignored(event);
  const base = { eventId: event.id, type: event.type, orderId, subscriptionId };
  if (event.type === 'invoice.payment_failed') {
    return {
      kind: 'renewal.failed',
      ...base,
      payUrl: invoice.hosted_invoice_url ?? null,
      invoiceId: invoice.id ?? null,
    };
  }
  const fresh = invoice.id ? await rereads.invoice(invoice.id) : invoice;
  return {
    kind: 'renewal.paid',
    ...base,
    invoice: paidInvoiceFrom(fresh, event.created),
    periodEnd: await periodEndOf(rereads, subscriptionId),
  };
}

/** Cancel-at-period-end set or cleared, or the subscription's end. */
function subscriptionEvent(event: Stripe.Event): PaymentEvent {
  const subscription = event.data.object as Stripe.Subscription;
  const base = {
    eventId: event.id,
    type: event.type,
    orderId: subscription.metadata?.orderId ?? null,
    subscriptionId: subscription.id,
  };
  if (event.type === 'customer.subscription.deleted' || subscription.status === 'canceled') {
    const endedAt = subscription.ended_at ?? subscription.canceled_at ?? event.created;
    return { kind: 'subscription.ended', ...base, endedAt: new Date(endedAt * 1000) };
  }
  const end = subscription.items?.data[0]?.current_period_end;
  return {
    kind: 'subscription.updated',
    ...base,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    periodEnd: end ? new Date(end * 1000) : null,
  };
}

/** The subscription and our order id an invoice belongs to (API 2025+: under parent.subscription_details). */
function subscriptionOfInvoice(invoice: Stripe.Invoice) {
  const details = invoice.parent?.subscription_details;
  return {
    subscriptionId: idOf(details?.subscription),
    orderId: details?.metadata?.orderId ?? invoice.metadata?.orderId ?? null,
  };
}

/** A payment without an invoice at Stripe: the session's own amounts. */
function sessionInvoice(session: Stripe.Checkout.Session, eventCreated: number, currency: string): PaidInvoice {
  return {
    id: session.id,
    hostedUrl: null,
    amountCents: session.amount_total ?? 0,
    discountCents: session.total_details?.amount_discount ?? 0,
    currency: session.currency ?? currency,
    paidAt: new Date(eventCreated * 1000),
  };
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

async function periodEndOf(rereads: Rereads, subscriptionId: string | null): Promise<Date | null> {
  if (!subscriptionId) return null;
  const subscription = await rereads.subscription(subscriptionId);
  const end = subscription.items.data[0]?.current_period_end;
  return end ? new Date(end * 1000) : null;
}

/** What a PaymentIntent's state means for a top-up. */
export function chargeOutcomeOf(intent: Stripe.PaymentIntent): ChargeOutcome {
  const chargeId = intent.id;
  switch (intent.status) {
    case 'succeeded':
      return {
        status: 'paid',
        chargeId,
        invoice: {
          id: intent.id,
          hostedUrl: null,
          amountCents: intent.amount_received || intent.amount,
          discountCents: 0,
          currency: intent.currency,
          paidAt: new Date(intent.created * 1000),
        },
      };
    case 'requires_action':
    case 'requires_confirmation':
      return { status: 'needs_action', message: topUpMessages.needsAction, chargeId };
    case 'requires_payment_method':
    case 'canceled':
      return { ...refusalOf(intent.last_payment_error), chargeId };
    default:
      return { status: 'pending', chargeId };
  }
}

/**
 * A card's refusal as the customer reads it. A bank asking for 3-D Secure off-session comes as the code, or as a
 * card_declined whose decline code says it: either way it needs the customer.
 */
export function refusalOf(error: { code?: string | null; decline_code?: string | null } | null | undefined): {
  status: 'failed' | 'needs_action';
  message: string;
} {
  if (error?.code === 'authentication_required' || error?.decline_code === 'authentication_required') {
    return { status: 'needs_action', message: topUpMessages.needsAction };
  }
  return { status: 'failed', message: declineWords(error?.decline_code ?? error?.code) };
}

/** The bank's reason code in words ("insufficient funds"), which is safe to show. */
export const declineWords = (code: string | undefined | null) =>
  code && code !== 'card_declined'
    ? `${topUpMessages.declined.slice(0, -1)} (${code.replaceAll('_', ' ')}).`
    : topUpMessages.declined;
