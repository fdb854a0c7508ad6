import { checkoutMessages } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coupons as coupons_, orders, payments, promoCodes, providerSteps, proxyIps } from '../db/schema.ts';
import { createCoupon } from '../modules/coupons/coupons.ts';
import { type FakeStripe, startFakeStripe } from '../test/fake-stripe.ts';
import { createTestApp, jsonHeaders, signUpCustomer, type TestApp } from '../test/test-app.ts';
import { CHECKOUT_PAYABLE_MS, PROVIDER_UNREACHABLE } from './provider.ts';

const WEBHOOK_SECRET = 'whsec_test_secret';

describe('checkout through Stripe (a local stand-in for its API)', () => {
  let fake: FakeStripe;
  let t: TestApp;
  let ann: { cookie: string; id: string };
  let boss: { cookie: string; id: string };

  const checkout = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/checkout', headers: { ...jsonHeaders, cookie: ann.cookie }, payload });
  const lastOrder = async () => {
    const rows = await t.database.db.select().from(orders).where(eq(orders.userId, ann.id));
    return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  };
  const sessionEvent = (
    id: string,
    orderId: string,
    type = 'checkout.session.completed',
    invoice = `in_${orderId.slice(0, 8)}`,
  ) =>
    JSON.stringify({
      id,
      object: 'event',
      type,
      created: 1_795_300_000,
      data: {
        object: {
          id: `cs_for_${orderId}`,
          object: 'checkout.session',
          payment_status: 'paid',
          client_reference_id: orderId,
          metadata: { orderId },
          invoice,
          subscription: 'sub_123',
          customer: 'cus_123',
          customer_details: { email: 'ann@example.com' },
        },
      },
    });
  const deliver = (
    payload: string,
    signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
      ADMIN_EMAILS: 'boss@example.com',
    });
    ann = await signUpCustomer(t, 'ann@example.com');
    boss = await signUpCustomer(t, 'boss@example.com');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('creates a subscription Checkout Session with the line item, the promo code, metadata, return URLs and an idempotency key', async () => {
    const answer = (await checkout({ productId: 'isp_proxies', quantity: 5, coupon: 'WELCOME10' })).json();
    expect(answer).toEqual({
      success: true,
      checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/),
    });
    const order = await lastOrder();

    // Prices were found or created by lookup key, recurring for the monthly products only.
    const prices = fake.find('POST /v1/prices');
    expect(prices.map((price) => price.params.lookup_key).sort()).toEqual([
      'storefront_isp_proxies_usd_250',
      'storefront_pk1_isp_proxies_usd_250',
      'storefront_residential_proxies_usd_500',
    ]);
    const ispPrice = prices.find((price) => price.params.product === 'storefront_isp_proxies');
    expect(ispPrice?.params['recurring[interval]']).toBe('month');
    expect(
      prices.find((price) => price.params.product === 'storefront_residential_proxies')?.params['recurring[interval]'],
    ).toBeUndefined();
    for (const request of fake.requests.filter((recorded) => recorded.method === 'POST'))
      expect(request.idempotencyKey).toBeTruthy();

    // The coupon and its code were mirrored at Stripe, for every product.
    const [coupon] = fake.find('POST /v1/coupons');
    expect(coupon?.params).toMatchObject({
      percent_off: '10',
      duration: 'once',
      'applies_to[products][0]': 'storefront_isp_proxies',
    });
    const [promo] = fake.find('POST /v1/promotion_codes');
    expect(promo?.params).toMatchObject({ code: 'WELCOME10', 'promotion[type]': 'coupon' });

    const [session] = fake.find('POST /v1/checkout/sessions');
    expect(session?.idempotencyKey).toBe(`checkout-${order?.id}`);
    expect(session?.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][quantity]': '5',
      'discounts[0][promotion_code]': expect.stringMatching(/^promo_/),
      'metadata[orderId]': order?.id,
      'subscription_data[metadata][orderId]': order?.id,
      client_reference_id: order?.id,
      customer_email: 'ann@example.com',
      success_url: 'http://localhost:3000/dashboard/proxies?tab=isp_proxies&paid=1',
      cancel_url: 'http://localhost:3000/dashboard/purchase',
    });
    expect(order).toMatchObject({
      status: 'awaiting_payment',
      provider: 'stripe',
      totalCents: 1125,
      discountCents: 125,
    });
  });

  it('reuses the mirrored promo code and makes a one-off payment with an invoice for residential data', async () => {
    await checkout({ productId: 'residential_proxies', quantity: 2, coupon: 'welcome10' });
    expect(fake.find('POST /v1/coupons')).toHaveLength(1);
    expect(fake.find('POST /v1/promotion_codes')).toHaveLength(1);
    const [, session] = fake.find('POST /v1/checkout/sessions');
    expect(session?.params).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '2',
      'invoice_creation[enabled]': 'true',
    });
    const [welcome] = await t.database.db.select().from(promoCodes).where(eq(promoCodes.code, 'WELCOME10'));
    expect(welcome?.providerPromoCodeId).toMatch(/^promo_/);
  });

  it('delivers on a signed checkout.session.completed; a tampered or repeated event changes nothing', async () => {
    await checkout({ productId: 'isp_proxies', quantity: 5 });
    const order = await lastOrder();
    const orderId = order?.id ?? '';
    const payload = sessionEvent('evt_paid_1', orderId);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });

    const tampered = await deliver(payload.replace('"quantity"', '"quantity"').replace('"paid"', '"paid" '), signature);
    expect(tampered.statusCode).toBe(400);
    expect((await deliver(payload, 't=1795300000,v1=0000')).statusCode).toBe(400);
    // Rightly signed, but dated a day ahead: refused, as one dated a day back is.
    const day = 86_400;
    for (const timestamp of [Math.floor(Date.now() / 1000) + day, Math.floor(Date.now() / 1000) - day]) {
      const dated = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });
      const refused = await deliver(payload, dated);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/signature/);
    }
    expect((await lastOrder())?.status).toBe('awaiting_payment');

    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) outcomes.push((await deliver(payload)).json().outcome);
    expect(outcomes).toEqual(['delivered', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);

    const ips = await t.database.db.select().from(proxyIps).where(eq(proxyIps.assignedOrderId, orderId));
    expect(ips).toHaveLength(5);
    const paid = await lastOrder();
    expect(paid).toMatchObject({
      status: 'delivered',
      providerSubscriptionId: 'sub_123',
      providerCustomerId: 'cus_123',
    });
    expect(paid?.expiresAt?.toISOString()).toBe(new Date((1_795_300_000 + 30 * 86_400) * 1000).toISOString());
    const history = (await t.app.inject({ url: '/api/orders/history', headers: { cookie: ann.cookie } })).json();
    expect(history).toEqual([
      expect.objectContaining({
        order_id: orderId,
        stripe_id: `in_${orderId.slice(0, 8)}`,
        status: 'paid',
        total: 1125,
        hosted_invoice_url: `https://invoice.stripe.test/i/in_${orderId.slice(0, 8)}`,
      }),
    ]);
  });

  it('handles events in any order of arrival, and events it does not know', async () => {
    await checkout({ productId: 'isp_proxies', quantity: 10 });
    const orderId = (await lastOrder())?.id ?? '';
    const invoicePaid = JSON.stringify({
      id: 'evt_invoice_first',
      object: 'event',
      type: 'invoice.paid',
      created: 1_795_300_000,
      data: { object: { id: 'in_x', object: 'invoice', billing_reason: 'subscription_create' } },
    });
    expect((await deliver(invoicePaid)).json()).toEqual({ received: true, outcome: 'ignored' });
    expect(
      (await deliver(sessionEvent('evt_async', orderId, 'checkout.session.async_payment_succeeded'))).json().outcome,
    ).toBe('delivered');
    expect((await deliver(sessionEvent('evt_completed_late', orderId))).json().outcome).toBe('already_paid');
    expect(await t.database.db.select().from(payments).where(eq(payments.orderId, orderId))).toHaveLength(1);
    expect(await t.database.db.select().from(proxyIps).where(eq(proxyIps.assignedOrderId, orderId))).toHaveLength(10);

    expect((await deliver(sessionEvent('evt_stranger', '00000000-0000-4000-8000-000000000000'))).json().outcome).toBe(
      'unknown_order',
    );
    expect((await deliver(sessionEvent('evt_garbage', 'not-an-order'))).json().outcome).toBe('unknown_order');
  });

  it('cancels at period end at Stripe when the customer cancels', async () => {
    const [delivered] = await t.database.db.select().from(orders).where(eq(orders.status, 'delivered'));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/orders/cancel',
      headers: { ...jsonHeaders, cookie: ann.cookie },
      payload: { id: delivered?.id },
    });
    expect(response.statusCode).toBe(200);
    const [update] = fake.find('POST /v1/subscriptions/sub_123');
    expect(update?.params).toEqual({ cancel_at_period_end: 'true' });
    expect(update?.idempotencyKey).toBe(`cancel-${delivered?.id}`);
  });

  it('renewals, failed renewals and the end of a subscription, repeated and out of order', async () => {
    await checkout({ productId: 'isp_proxies', quantity: 5 });
    const orderId = (await lastOrder())?.id ?? '';
    await deliver(sessionEvent(`evt_start_${orderId}`, orderId));
    const before = await lastOrder();
    const invoiceEvent = (id: string, type: string, invoice: string) =>
      JSON.stringify({
        id,
        object: 'event',
        type,
        created: 1_797_900_000,
        data: {
          object: {
            id: invoice,
            object: 'invoice',
            billing_reason: 'subscription_cycle',
            hosted_invoice_url: `https://invoice.stripe.test/i/${invoice}`,
            parent: {
              type: 'subscription_details',
              subscription_details: { subscription: `sub_of_${orderId}`, metadata: { orderId } },
            },
          },
        },
      });
    const subscriptionEvent = (id: string, type: string, fields: object) =>
      JSON.stringify({
        id,
        object: 'event',
        type,
        created: 1_797_900_000,
        data: {
          object: {
            id: `sub_of_${orderId}`,
            object: 'subscription',
            metadata: { orderId },
            status: 'active',
            cancel_at_period_end: false,
            items: { data: [] },
            ...fields,
          },
        },
      });

    // A failed renewal, five times: one flag, one grace period.
    const failed = invoiceEvent('evt_failed_1', 'invoice.payment_failed', 'in_renewal_failed');
    const failures = [];
    for (let i = 0; i < 5; i++) failures.push((await deliver(failed)).json().outcome);
    expect(failures).toEqual(['failed', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect(await lastOrder()).toMatchObject({ paymentFailed: true });

    // The renewal paid later, five times: one history entry, one period more, the flag cleared.
    const paid = invoiceEvent('evt_renewed_1', 'invoice.paid', 'in_renewal_2');
    const renewals = [];
    for (let i = 0; i < 5; i++) renewals.push((await deliver(paid)).json().outcome);
    expect(renewals).toEqual(['renewed', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    const renewed = await lastOrder();
    expect(renewed).toMatchObject({ paymentFailed: false, graceEndsAt: null });
    expect(renewed?.expiresAt?.getTime()).toBeGreaterThan(before?.expiresAt?.getTime() ?? 0);
    const entries = (await t.app.inject({ url: '/api/orders/history', headers: { cookie: ann.cookie } }))
      .json()
      .filter((entry: { order_id: string }) => entry.order_id === orderId);
    expect(entries).toHaveLength(2);
    // The same invoice told by another event id changes nothing either.
    expect((await deliver(invoiceEvent('evt_renewed_again', 'invoice.paid', 'in_renewal_2'))).json().outcome).toBe(
      'already_recorded',
    );

    // The end arrives before the cancellation that preceded it: the order ends, the late update changes nothing.
    const deleted = subscriptionEvent('evt_deleted', 'customer.subscription.deleted', {
      status: 'canceled',
      ended_at: 1_797_950_000,
    });
    const updated = subscriptionEvent('evt_updated', 'customer.subscription.updated', { cancel_at_period_end: true });
    expect((await deliver(deleted)).json().outcome).toBe('expired');
    for (let i = 0; i < 4; i++) expect((await deliver(deleted)).json().outcome).toBe('duplicate');
    expect((await deliver(updated)).json().outcome).toBe('not_active');
    const ended = await lastOrder();
    expect(ended?.status).toBe('expired');
    expect(await t.database.db.select().from(proxyIps).where(eq(proxyIps.assignedOrderId, orderId))).toEqual([]);
  });

  it("asks again for an event that overtook its order's payment, and ignores a failure of an invoice already paid", async () => {
    await checkout({ productId: 'isp_proxies', quantity: 5 });
    const orderId = (await lastOrder())?.id ?? '';
    const cancelAtEnd = JSON.stringify({
      id: 'evt_early_update',
      object: 'event',
      type: 'customer.subscription.updated',
      created: 1_797_900_000,
      data: {
        object: {
          id: `sub_early_${orderId}`,
          object: 'subscription',
          metadata: { orderId },
          status: 'active',
          cancel_at_period_end: true,
          items: { data: [] },
        },
      },
    });
    // Before the payment: 503, nothing recorded, so Stripe sends it again; after it, it counts.
    const early = await deliver(cancelAtEnd);
    expect(early.statusCode).toBe(503);
    expect(early.headers['retry-after']).toBe('60');
    await deliver(sessionEvent(`evt_start_${orderId}`, orderId));
    expect((await deliver(cancelAtEnd)).json().outcome).toBe('cancel_scheduled');
    expect(await lastOrder()).toMatchObject({ cancelled: true, status: 'delivered' });

    const renewalInvoice = (id: string, type: string) =>
      JSON.stringify({
        id,
        object: 'event',
        type,
        created: 1_797_900_000,
        data: {
          object: {
            id: `in_retried_${orderId.slice(0, 8)}`,
            object: 'invoice',
            billing_reason: 'subscription_cycle',
            parent: {
              type: 'subscription_details',
              subscription_details: { subscription: `sub_early_${orderId}`, metadata: { orderId } },
            },
          },
        },
      });
    // The retried charge succeeded and its event came first; the failure that preceded it arrives late.
    expect((await deliver(renewalInvoice('evt_retry_paid', 'invoice.paid'))).json().outcome).toBe('renewed');
    expect((await deliver(renewalInvoice('evt_retry_failed', 'invoice.payment_failed'))).json().outcome).toBe(
      'already_recorded',
    );
    expect(await lastOrder()).toMatchObject({ paymentFailed: false, graceEndsAt: null });
  });

  it('honours cancel at period end set at Stripe', async () => {
    await checkout({ productId: 'isp_proxies', quantity: 5 });
    const orderId = (await lastOrder())?.id ?? '';
    await deliver(sessionEvent(`evt_start_${orderId}`, orderId));
    const event = JSON.stringify({
      id: 'evt_cancel_at_end',
      object: 'event',
      type: 'customer.subscription.updated',
      created: 1_797_900_000,
      data: {
        object: {
          id: 'sub_x',
          object: 'subscription',
          metadata: { orderId },
          status: 'active',
          cancel_at_period_end: true,
          items: { data: [] },
        },
      },
    });
    expect((await deliver(event)).json().outcome).toBe('cancel_scheduled');
    expect(await lastOrder()).toMatchObject({ cancelled: true, status: 'delivered' });
  });

  it('creates, toggles and deletes coupons at Stripe first; a refusal or a failure there changes nothing here', async () => {
    const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: payload
          ? { ...jsonHeaders, cookie: boss.cookie }
          : { origin: jsonHeaders.origin, cookie: boss.cookie },
        ...(payload && { payload }),
      });
    const coupon = {
      code: 'STRIPE20',
      name: 'Twenty off',
      duration: 'once',
      discountType: 'percent_off',
      percentOff: 20,
      appliesToProducts: ['pk1_isp_proxies'],
      maxRedemptions: 50,
    };
    const codes = async () =>
      (await admin('GET', '/api/admin/coupons'))
        .json()
        .coupons.flatMap((entry: { promoCodes: { code: string }[] }) => entry.promoCodes.map((promo) => promo.code));

    // Refused at Stripe (its code made the coupon, then refused the promotion code): 400 in words, nothing here, and
    // the coupon Stripe made is removed by the job.
    const couponsBefore = fake.find('POST /v1/coupons').length;
    fake.failNext('POST /v1/promotion_codes');
    const refused = await admin('POST', '/api/admin/coupons', coupon);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message: 'The payment provider refused to create the coupon (parameter invalid integer). Nothing was changed.',
    });
    expect(await codes()).not.toContain('STRIPE20');
    const orphan = String(fake.find('POST /v1/coupons').at(-1)?.params.id);
    expect(orphan).toMatch(/^storefront_coupon_/);
    expect(fake.objects.has(orphan)).toBe(true);
    await t.app.jobs.runOnce();
    expect(fake.objects.has(orphan)).toBe(false);

    // Stripe failing on its side (500, retried once by the SDK): 503, the same sentence everywhere.
    fake.failNext('POST /v1/coupons', 500, 2);
    const unreachable = await admin('POST', '/api/admin/coupons', coupon);
    expect(unreachable.statusCode).toBe(503);
    expect(unreachable.json()).toEqual({ message: PROVIDER_UNREACHABLE });
    expect(await codes()).not.toContain('STRIPE20');

    expect((await admin('POST', '/api/admin/coupons', coupon)).json()).toEqual({ message: 'Coupon created!' });
    const created = fake.find('POST /v1/coupons').at(-1);
    expect(fake.find('POST /v1/coupons').length).toBeGreaterThan(couponsBefore + 1);
    expect(created?.params).toMatchObject({ name: 'Twenty off', duration: 'once', percent_off: '20' });
    const promotion = fake.find('POST /v1/promotion_codes').at(-1);
    expect(promotion?.params).toMatchObject({ code: 'STRIPE20', max_redemptions: '50' });
    const [row] = await t.database.db.select().from(promoCodes).where(eq(promoCodes.code, 'STRIPE20'));
    expect(row?.providerPromoCodeId).toMatch(/^promo_/);

    const toggle = (active: boolean) => admin('PATCH', `/api/admin/coupons/${row?.id}/toggle`, { active });
    const activeHere = async () =>
      (
        await t.database.db
          .select()
          .from(promoCodes)
          .where(eq(promoCodes.id, row?.id ?? ''))
      )[0]?.active;
    fake.failNext(`POST /v1/promotion_codes/${row?.providerPromoCodeId}`);
    expect((await toggle(false)).statusCode).toBe(400);
    expect(await activeHere()).toBe(true);
    fake.failNext(`POST /v1/promotion_codes/${row?.providerPromoCodeId}`, 503, 2);
    expect((await toggle(false)).json()).toEqual({ message: PROVIDER_UNREACHABLE });
    expect(await activeHere()).toBe(true);
    // Until the job has settled the failed switch (sending the code's state here to Stripe), another waits.
    expect((await toggle(false)).statusCode).toBe(409);
    await t.app.jobs.runOnce();
    expect(fake.find(`POST /v1/promotion_codes/${row?.providerPromoCodeId}`).at(-1)?.params).toMatchObject({
      active: 'true',
    });
    expect((await toggle(false)).statusCode).toBe(200);
    expect(await activeHere()).toBe(false);
    const switched = fake.find(`POST /v1/promotion_codes/${row?.providerPromoCodeId}`).at(-1);
    expect(switched?.params).toMatchObject({ active: 'false' });
    // Each switch has a key of its own: a later switch back and forth is never answered from an old one.
    expect(switched?.idempotencyKey).toMatch(/^toggle-[0-9a-f-]{36}$/);

    const { coupons } = (await admin('GET', '/api/admin/coupons')).json();
    const twenty = coupons.find((entry: { name: string }) => entry.name === 'Twenty off');
    const [local] = await t.database.db.select().from(coupons_).where(eq(coupons_.id, twenty.id));
    fake.failNext(`DELETE /v1/coupons/${local?.providerCouponId}`);
    expect((await admin('DELETE', `/api/admin/coupons/${twenty.id}`)).statusCode).toBe(400);
    expect(await codes()).toContain('STRIPE20');
    expect((await admin('DELETE', `/api/admin/coupons/${twenty.id}`)).statusCode).toBe(200);
    expect(fake.find(`DELETE /v1/coupons/${local?.providerCouponId}`)).toHaveLength(2);
    expect(await codes()).not.toContain('STRIPE20');
    expect(await t.database.db.select().from(providerSteps)).toEqual([]);
  });

  it('a one-use code: its promotion code at Stripe carries max_redemptions 1, the session closes with the hold, one checkout holds it', async () => {
    await createCoupon({
      db: t.database.db,
      code: 'STRIPEONCE',
      name: 'Half off, once',
      duration: 'once',
      percentOff: 50,
      productIds: ['isp_proxies'],
      maxRedemptions: 1,
    });
    // Stripe refuses the first session: the order goes, and with it the hold on the code's use.
    fake.failNext('POST /v1/checkout/sessions');
    expect((await checkout({ productId: 'isp_proxies', quantity: 5, coupon: 'STRIPEONCE' })).statusCode).toBe(400);

    const started = await checkout({ productId: 'isp_proxies', quantity: 5, coupon: 'STRIPEONCE' });
    expect(started.statusCode).toBe(200);
    const promotion = fake.find('POST /v1/promotion_codes').findLast((request) => request.params.code === 'STRIPEONCE');
    expect(promotion?.params).toMatchObject({ max_redemptions: '1' });
    const order = await lastOrder();
    const session = fake.find('POST /v1/checkout/sessions').at(-1);
    expect(Number(session?.params.expires_at)).toBe(
      Math.floor(((order?.createdAt.getTime() ?? 0) + CHECKOUT_PAYABLE_MS) / 1000),
    );

    const again = await checkout({ productId: 'isp_proxies', quantity: 5, coupon: 'STRIPEONCE' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, error: { message: checkoutMessages.couponUsedUp } });
  });

  it('has no sandbox pages while Stripe is the provider', async () => {
    expect(
      (await t.app.inject({ url: '/api/sandbox/checkout/cs_x', headers: { cookie: ann.cookie } })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/webhooks/sandbox', payload: '{}' })).statusCode).toBe(404);
  });

  it('keeps no order when Stripe refuses the session (400 in words) or fails (503)', async () => {
    const before = await t.database.db.select({ id: orders.id }).from(orders);
    fake.failNext('POST /v1/checkout/sessions');
    const refused = await checkout({ productId: 'pk1_isp_proxies', quantity: 5 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      success: false,
      error: {
        message: 'The payment provider refused to start the checkout (parameter invalid integer). Nothing was changed.',
      },
    });
    fake.failNext('POST /v1/checkout/sessions', 500, 2);
    const failed = await checkout({ productId: 'pk1_isp_proxies', quantity: 5 });
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toEqual({ success: false, error: { message: PROVIDER_UNREACHABLE } });
    expect(await t.database.db.select({ id: orders.id }).from(orders)).toHaveLength(before.length);
  });
});
