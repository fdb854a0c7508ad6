import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { WebhookSignatureError } from '../provider.ts';
import { paymentEventOf, type Rereads, readingOf, verifiedEvent } from './events.ts';

const SECRET = 'whsec_unit';
const CREATED = 1_795_300_000;
const PERIOD_END = CREATED + 30 * 86_400;

const eventOf = (type: string, object: object) =>
  ({ id: `evt_${type}`, object: 'event', type, created: CREATED, data: { object } }) as unknown as Stripe.Event;

/** Stripe as read again: the invoices and subscriptions asked for, answered from here. */
function rereads() {
  const asked: string[] = [];
  const at: Rereads = {
    invoice: async (id) => {
      asked.push(id);
      return {
        id,
        hosted_invoice_url: `https://invoice.stripe.test/i/${id}`,
        amount_paid: 1125,
        currency: 'usd',
        total_discount_amounts: [{ amount: 100 }, { amount: 25 }],
        status_transitions: { paid_at: CREATED + 5 },
      } as unknown as Stripe.Invoice;
    },
    subscription: async (id) => {
      asked.push(id);
      return { id, items: { data: [{ current_period_end: PERIOD_END }] } } as unknown as Stripe.Subscription;
    },
    setupIntent: async (id) => {
      asked.push(id);
      return {
        id,
        status: 'succeeded',
        customer: 'cus_1',
        payment_method: { id: 'pm_1', card: { brand: 'visa', display_brand: 'visa', last4: '4242' } },
      } as unknown as Stripe.SetupIntent;
    },
  };
  return { at, asked };
}

describe("reading Stripe's events", () => {
  describe('the signature', () => {
    const payload = JSON.stringify(eventOf('invoice.paid', { id: 'in_1' }));

    it('takes an event signed with the secret', async () => {
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
      expect((await verifiedEvent(Buffer.from(payload), signature, SECRET)).id).toBe('evt_invoice.paid');
    });

    it.each([
      ['another secret', () => Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' })],
      ['no signature', () => undefined],
      [
        'a day ahead',
        () =>
          Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: SECRET,
            timestamp: Math.floor(Date.now() / 1000) + 86_400,
          }),
      ],
      [
        'a day old',
        () =>
          Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: SECRET,
            timestamp: Math.floor(Date.now() / 1000) - 86_400,
          }),
      ],
    ])('refuses one signed with %s', async (_, signature) => {
      await expect(verifiedEvent(Buffer.from(payload), signature(), SECRET)).rejects.toBeInstanceOf(
        WebhookSignatureError,
      );
    });

    it('refuses a body changed after signing', async () => {
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
      await expect(verifiedEvent(Buffer.from(`${payload} `), signature, SECRET)).rejects.toBeInstanceOf(
        WebhookSignatureError,
      );
    });
  });

  describe('a paid checkout', () => {
    const session = {
      id: 'cs_1',
      object: 'checkout.session',
      payment_status: 'paid',
      client_reference_id: 'order-ref',
      metadata: { orderId: 'order-1' },
      invoice: 'in_1',
      subscription: { id: 'sub_1' },
      customer: 'cus_1',
      customer_details: { email: 'ann@example.com' },
    };

    it('reads its invoice and subscription again at Stripe', async () => {
      const { at, asked } = rereads();
      const event = eventOf('checkout.session.completed', session);
      expect(readingOf(event)).toBe('read the payment');
      expect(await paymentEventOf(event, at, 'eur')).toEqual({
        kind: 'checkout.paid',
        eventId: 'evt_checkout.session.completed',
        type: 'checkout.session.completed',
        orderId: 'order-1',
        invoice: {
          id: 'in_1',
          hostedUrl: 'https://invoice.stripe.test/i/in_1',
          amountCents: 1125,
          discountCents: 125,
          currency: 'usd',
          paidAt: new Date((CREATED + 5) * 1000),
        },
        customerEmail: 'ann@example.com',
        subscriptionId: 'sub_1',
        customerId: 'cus_1',
        periodEnd: new Date(PERIOD_END * 1000),
      });
      expect(asked).toEqual(['in_1', 'sub_1']);
    });

    it("takes the session's amounts when it has no invoice, and the reference when it has no metadata", async () => {
      const { at, asked } = rereads();
      const oneOff = {
        ...session,
        payment_status: 'no_payment_required',
        metadata: {},
        invoice: null,
        subscription: null,
        customer: null,
        customer_details: null,
        customer_email: 'bob@example.com',
        amount_total: 0,
        total_details: { amount_discount: 500 },
      };
      const paid = await paymentEventOf(eventOf('checkout.session.async_payment_succeeded', oneOff), at, 'eur');
      expect(paid).toMatchObject({
        kind: 'checkout.paid',
        orderId: 'order-ref',
        invoice: { id: 'cs_1', hostedUrl: null, amountCents: 0, discountCents: 500, currency: 'eur' },
        customerEmail: 'bob@example.com',
        subscriptionId: null,
        customerId: null,
        periodEnd: null,
      });
      expect(asked).toEqual([]);
    });

    it('ignores a session not paid yet, or without an order, and asks Stripe nothing', async () => {
      const { at, asked } = rereads();
      for (const object of [
        { ...session, payment_status: 'unpaid' },
        { ...session, metadata: {}, client_reference_id: null },
      ]) {
        expect(await paymentEventOf(eventOf('checkout.session.completed', object), at, 'usd')).toEqual({
          kind: 'ignored',
          eventId: 'evt_checkout.session.completed',
          type: 'checkout.session.completed',
        });
      }
      expect(asked).toEqual([]);
    });
  });

  describe('renewals', () => {
    const invoice = {
      id: 'in_2',
      object: 'invoice',
      billing_reason: 'subscription_cycle',
      hosted_invoice_url: 'https://invoice.stripe.test/i/in_2',
      parent: { subscription_details: { subscription: 'sub_1', metadata: { orderId: 'order-1' } } },
    };

    it('a paid renewal: the invoice read again, the period end from the subscription', async () => {
      const { at, asked } = rereads();
      const event = eventOf('invoice.paid', invoice);
      expect(readingOf(event)).toBe('read the event');
      expect(await paymentEventOf(event, at, 'usd')).toMatchObject({
        kind: 'renewal.paid',
        orderId: 'order-1',
        subscriptionId: 'sub_1',
        invoice: { id: 'in_2', amountCents: 1125 },
        periodEnd: new Date(PERIOD_END * 1000),
      });
      expect(asked).toEqual(['in_2', 'sub_1']);
    });

    it('a failed renewal: where to pay, from the event alone', async () => {
      const { at, asked } = rereads();
      expect(await paymentEventOf(eventOf('invoice.payment_failed', invoice), at, 'usd')).toEqual({
        kind: 'renewal.failed',
        eventId: 'evt_invoice.payment_failed',
        type: 'invoice.payment_failed',
        orderId: 'order-1',
        subscriptionId: 'sub_1',
        payUrl: 'https://invoice.stripe.test/i/in_2',
        invoiceId: 'in_2',
      });
      expect(asked).toEqual([]);
    });

    it("ignores a subscription's first invoice (its checkout delivers it) and an invoice of no subscription", async () => {
      const { at } = rereads();
      const first = { ...invoice, billing_reason: 'subscription_create' };
      const single = { ...invoice, parent: null };
      for (const object of [first, single]) {
        expect((await paymentEventOf(eventOf('invoice.paid', object), at, 'usd')).kind).toBe('ignored');
      }
    });
  });

  describe('subscriptions', () => {
    const subscription = {
      id: 'sub_1',
      object: 'subscription',
      metadata: { orderId: 'order-1' },
      status: 'active',
      cancel_at_period_end: true,
      items: { data: [{ current_period_end: PERIOD_END }] },
    };

    it('cancel at period end set at Stripe', async () => {
      const { at } = rereads();
      expect(await paymentEventOf(eventOf('customer.subscription.updated', subscription), at, 'usd')).toEqual({
        kind: 'subscription.updated',
        eventId: 'evt_customer.subscription.updated',
        type: 'customer.subscription.updated',
        orderId: 'order-1',
        subscriptionId: 'sub_1',
        cancelAtPeriodEnd: true,
        periodEnd: new Date(PERIOD_END * 1000),
      });
    });

    it('the end: deleted, or updated to cancelled, at the time it ended', async () => {
      const { at } = rereads();
      const deleted = { ...subscription, status: 'canceled', ended_at: CREATED + 60 };
      expect(await paymentEventOf(eventOf('customer.subscription.deleted', deleted), at, 'usd')).toMatchObject({
        kind: 'subscription.ended',
        subscriptionId: 'sub_1',
        endedAt: new Date((CREATED + 60) * 1000),
      });
      const cancelled = { ...subscription, status: 'canceled', canceled_at: CREATED + 30 };
      expect(await paymentEventOf(eventOf('customer.subscription.updated', cancelled), at, 'usd')).toMatchObject({
        kind: 'subscription.ended',
        endedAt: new Date((CREATED + 30) * 1000),
      });
    });
  });

  it('ignores the events the shop does not act on', async () => {
    const { at, asked } = rereads();
    expect(await paymentEventOf(eventOf('charge.refunded', { id: 'ch_1' }), at, 'usd')).toEqual({
      kind: 'ignored',
      eventId: 'evt_charge.refunded',
      type: 'charge.refunded',
    });
    expect(asked).toEqual([]);
  });
});
