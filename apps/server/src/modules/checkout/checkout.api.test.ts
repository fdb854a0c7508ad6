import { authMessages, checkoutMessages } from '@storefront/contract';
import { and, eq, isNull } from 'drizzle-orm';
import fc from 'fast-check';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponRedemptions, featureFlags, orders, promoCodes, proxyIps } from '../../db/schema.ts';
import { sandboxWebhookSecret } from '../../payments/sandbox-provider.ts';
import { createTestApp, jsonHeaders, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { createCoupon } from '../coupons/coupons.ts';

describe('checkout through the sandbox provider', () => {
  let t: TestApp;
  let ann: { cookie: string; id: string };
  let bob: { cookie: string; id: string };

  const checkout = (cookie: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/checkout',
      headers: { ...jsonHeaders, cookie },
      payload: payload as object,
    });
  const refusal = async (payload: unknown, cookie = ann.cookie) => {
    const response = await checkout(cookie, payload);
    return { status: response.statusCode, body: response.json() };
  };
  const checkoutId = (url: string) => url.split('/sandbox/checkout/')[1] ?? '';
  const pay = (cookie: string, id: string, card: 'ok' | 'declined') =>
    t.app.inject({
      method: 'POST',
      url: `/api/sandbox/checkout/${id}/pay`,
      headers: { ...jsonHeaders, cookie },
      payload: { card },
    });

  beforeAll(async () => {
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
      AUTH_SECRET: 'checkout-tests-secret-of-32-characters!',
    });
    ann = await signUpCustomer(t, 'ann@example.com');
    bob = await signUpCustomer(t, 'bob@example.com');
    const now = Date.now();
    await createCoupon({
      db: t.database.db,
      code: 'OLD',
      name: 'Old',
      duration: 'once',
      percentOff: 5,
      productIds: ['isp_proxies'],
      expiresAt: new Date(now - 1000),
    });
    await createCoupon({
      db: t.database.db,
      code: 'ONCEONLY',
      name: 'One use',
      duration: 'once',
      percentOff: 5,
      productIds: ['isp_proxies'],
      maxRedemptions: 1,
    });
    await createCoupon({
      db: t.database.db,
      code: 'RESI5',
      name: 'Five off',
      duration: 'once',
      amountOffCents: 500,
      productIds: ['residential_proxies'],
    });
    const off = await createCoupon({
      db: t.database.db,
      code: 'PAUSED',
      name: 'Paused',
      duration: 'forever',
      percentOff: 50,
      productIds: ['isp_proxies'],
    });
    await t.database.db.update(promoCodes).set({ active: false }).where(eq(promoCodes.id, off.promo.id));
  });
  afterAll(() => t.close());

  it('needs a session', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/checkout',
      headers: jsonHeaders,
      payload: { productId: 'isp_proxies', quantity: 5 },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, error: { message: authMessages.authRequired } });
    // Who is asking is checked before the body is read: a visitor learns nothing about what a good body looks like.
    const badBody = await t.app.inject({ method: 'POST', url: '/api/checkout', headers: jsonHeaders, payload: {} });
    expect(badBody.statusCode).toBe(401);
  });

  it('refuses every bad request with a message a person understands', async () => {
    expect(await refusal({})).toEqual({
      status: 400,
      body: { success: false, error: { message: checkoutMessages.selectionRequired } },
    });
    expect((await refusal({ productId: 'datacenter', quantity: 5 })).body.error.message).toBe(
      checkoutMessages.unknownProduct,
    );
    expect((await refusal({ productId: 'isp_proxies', quantity: 0 })).body.error.message).toBe(
      checkoutMessages.quantityRange,
    );
    expect((await refusal({ productId: 'isp_proxies', quantity: 10_001 })).body.error.message).toBe(
      checkoutMessages.quantityRange,
    );
    // Past the 32-bit quantity column: refused by the contract, with the same sentence, for every product.
    for (const productId of ['isp_proxies', 'pk1_isp_proxies', 'residential_proxies']) {
      expect(await refusal({ productId, quantity: 9007199254740991 })).toEqual({
        status: 400,
        body: { success: false, error: { message: checkoutMessages.quantityRange } },
      });
    }
    expect((await refusal({ productId: 'residential_proxies', quantity: 2.5 })).body.error.message).toBe(
      checkoutMessages.quantityNotWhole,
    );
    expect((await refusal({ productId: 'pk1_isp_proxies', quantity: 7 })).body.error.message).toMatch(
      /^PK1 ISP Proxies come in bundles of 5, 25, 50/,
    );
    expect((await refusal({ productId: 'isp_proxies', quantity: 5, coupon: 'NOPE' })).body.error.message).toBe(
      checkoutMessages.couponUnknown,
    );
    expect((await refusal({ productId: 'isp_proxies', quantity: 5, coupon: 'PAUSED' })).body.error.message).toBe(
      checkoutMessages.couponInactive,
    );
    expect((await refusal({ productId: 'isp_proxies', quantity: 5, coupon: 'old' })).body.error.message).toBe(
      checkoutMessages.couponExpired,
    );
    expect((await refusal({ productId: 'isp_proxies', quantity: 5, coupon: 'A'.repeat(16) })).body.error.message).toBe(
      checkoutMessages.couponTooLong,
    );
    expect((await refusal({ productId: 'pk1_isp_proxies', quantity: 5, coupon: 'RESI5' })).body.error.message).toBe(
      'This coupon code cannot be used for PK1 ISP Proxies.',
    );
    const typed = await refusal({ productId: 'isp_proxies', quantity: '5' });
    expect(typed.status).toBe(400);
    expect(typed.body.success).toBe(false);
    expect(typed.body.error.message).toMatch(/quantity/);
  });

  it('refuses a product switched off by its feature flag, and takes it again when switched on', async () => {
    const db = t.database.db;
    await db.update(featureFlags).set({ isEnabled: false }).where(eq(featureFlags.featureName, 'pk1_isp_proxies'));
    expect(await refusal({ productId: 'pk1_isp_proxies', quantity: 5 })).toEqual({
      status: 409,
      body: {
        success: false,
        error: { message: 'PK1 ISP Proxies cannot be bought at the moment. Please try again later.' },
      },
    });
    await db.update(featureFlags).set({ isEnabled: true }).where(eq(featureFlags.featureName, 'pk1_isp_proxies'));
    expect((await checkout(ann.cookie, { productId: 'pk1_isp_proxies', quantity: 5 })).json().success).toBe(true);
  });

  it('buys 5 Elite ISP with WELCOME10: the sandbox page, the payment, the delivery, the history and the redemption', async () => {
    const started = (
      await checkout(ann.cookie, { productId: 'isp_proxies', quantity: 5, coupon: '  welcome10 ' })
    ).json();
    expect(started).toEqual({
      success: true,
      checkoutUrl: expect.stringMatching(/^http:\/\/localhost:3000\/sandbox\/checkout\/cs_sandbox_/),
    });
    const id = checkoutId(started.checkoutUrl);

    const page = await t.app.inject({ url: `/api/sandbox/checkout/${id}`, headers: { cookie: ann.cookie } });
    expect(page.json()).toMatchObject({
      status: 'open',
      productLabel: 'Elite ISP Proxies',
      quantity: 5,
      unitPriceCents: 250,
      subtotalCents: 1250,
      discountCents: 125,
      totalCents: 1125,
      couponCode: 'WELCOME10',
      recurring: true,
    });
    // Another customer can neither see nor pay it.
    expect(
      (await t.app.inject({ url: `/api/sandbox/checkout/${id}`, headers: { cookie: bob.cookie } })).statusCode,
    ).toBe(404);
    expect((await pay(bob.cookie, id, 'ok')).statusCode).toBe(404);

    const declined = await pay(ann.cookie, id, 'declined');
    expect(declined.json()).toMatchObject({ status: 'declined' });
    expect((await t.app.inject({ url: '/api/orders', headers: { cookie: ann.cookie } })).json()).toEqual([]);
    expect(
      (await t.app.inject({ url: `/api/sandbox/checkout/${id}`, headers: { cookie: ann.cookie } })).json().status,
    ).toBe('declined');

    const paid = await pay(ann.cookie, id, 'ok');
    expect(paid.json()).toMatchObject({
      status: 'paid',
      redirectUrl: 'http://localhost:3000/dashboard/proxies?tab=isp_proxies&paid=1',
    });
    // A second click changes nothing.
    expect((await pay(ann.cookie, id, 'ok')).json().status).toBe('paid');

    const list = (await t.app.inject({ url: '/api/orders', headers: { cookie: ann.cookie } })).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      product_id: 'isp_proxies',
      processing: false,
      cancelled: false,
      payment_failed: false,
    });
    expect(list[0].proxies).toHaveLength(5);
    const month = new Date(list[0].expiration_time).getTime() - new Date(list[0].purchase_time).getTime();
    expect(month / 86_400_000).toBeGreaterThanOrEqual(28);
    expect(month / 86_400_000).toBeLessThanOrEqual(31);

    const history = (await t.app.inject({ url: '/api/orders/history', headers: { cookie: ann.cookie } })).json();
    expect(history).toEqual([
      {
        order_id: list[0].id,
        stripe_id: expect.stringMatching(/^in_sandbox_/),
        status: 'paid',
        purchased_at: list[0].purchase_time,
        product_ids: ['isp_proxies'],
        total: 1125,
        currency: 'usd',
        hosted_invoice_url: expect.stringMatching(/^http:\/\/localhost:3000\/sandbox\/invoices\/in_sandbox_/),
      },
    ]);
    const invoiceId = history[0].stripe_id;
    const invoice = (await t.app.inject({ url: `/api/sandbox/invoices/${invoiceId}` })).json();
    expect(invoice).toMatchObject({
      customerEmail: 'ann@example.com',
      subtotalCents: 1250,
      discountCents: 125,
      totalCents: 1125,
      status: 'paid',
    });
    expect((await t.app.inject({ url: '/api/orders/history', headers: { cookie: bob.cookie } })).json()).toEqual([]);

    const redemptions = await t.database.db.select().from(couponRedemptions);
    expect(redemptions).toEqual([expect.objectContaining({ orderId: list[0].id, email: 'ann@example.com' })]);
    const [welcome] = await t.database.db.select().from(promoCodes).where(eq(promoCodes.code, 'WELCOME10'));
    expect(welcome?.timesRedeemed).toBe(1);
  });

  it('refuses a code used up by earlier paid orders', async () => {
    const first = (await checkout(bob.cookie, { productId: 'isp_proxies', quantity: 5, coupon: 'ONCEONLY' })).json();
    await pay(bob.cookie, checkoutId(first.checkoutUrl), 'ok');
    expect((await refusal({ productId: 'isp_proxies', quantity: 5, coupon: 'ONCEONLY' })).body.error.message).toBe(
      checkoutMessages.couponUsedUp,
    );
  });

  it('accepts more than the stock: the paid order waits as processing and takes no IP', async () => {
    const db = t.database.db;
    const available = await db
      .select({ id: proxyIps.id })
      .from(proxyIps)
      .where(and(eq(proxyIps.productId, 'pk1_isp_proxies'), isNull(proxyIps.assignedOrderId)));
    expect(available.length).toBeLessThan(500);
    const started = (await checkout(bob.cookie, { productId: 'pk1_isp_proxies', quantity: 200 })).json();
    const again = (await checkout(bob.cookie, { productId: 'pk1_isp_proxies', quantity: 200 })).json();
    await pay(bob.cookie, checkoutId(started.checkoutUrl), 'ok');
    await pay(bob.cookie, checkoutId(again.checkoutUrl), 'ok');
    const pk1 = (await t.app.inject({ url: '/api/orders', headers: { cookie: bob.cookie } }))
      .json()
      .filter((order: { product_id: string }) => order.product_id === 'pk1_isp_proxies');
    expect(pk1.map((order: { processing: boolean }) => order.processing).sort()).toEqual([false, true]);
    expect(pk1.find((order: { processing: boolean }) => order.processing).proxies).toEqual([]);
  });

  it('buys residential data with a fixed-amount coupon: the account gets the GB, and no expiry', async () => {
    const started = (
      await checkout(bob.cookie, { productId: 'residential_proxies', quantity: 3, coupon: 'RESI5' })
    ).json();
    const page = (
      await t.app.inject({
        url: `/api/sandbox/checkout/${checkoutId(started.checkoutUrl)}`,
        headers: { cookie: bob.cookie },
      })
    ).json();
    expect(page).toMatchObject({
      subtotalCents: 1500,
      discountCents: 500,
      totalCents: 1000,
      recurring: false,
      unitLabel: 'per GB',
    });
    await pay(bob.cookie, checkoutId(started.checkoutUrl), 'ok');
    const usage = (await t.app.inject({ url: '/api/orders/usage', headers: { cookie: bob.cookie } })).json();
    expect(usage).toEqual([expect.objectContaining({ totalInKb: 3 * 1024 * 1000, usedInKb: 0 })]);
    const residential = (await t.app.inject({ url: '/api/orders', headers: { cookie: bob.cookie } }))
      .json()
      .find((order: { product_id: string }) => order.product_id === 'residential_proxies');
    expect(residential).toMatchObject({ processing: false, expiration_time: null });
  });

  it('refuses a webhook whose signature is missing or wrong, and writes nothing', async () => {
    const before = await t.database.db.select({ id: orders.id }).from(orders);
    for (const signature of [undefined, 't=1,v1=deadbeef']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/sandbox',
        headers: { 'content-type': 'application/json', ...(signature && { 'sandbox-signature': signature }) },
        payload: JSON.stringify({ id: 'evt_forged', type: 'sandbox.checkout.paid', data: {} }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'The webhook signature is not valid.' });
    }
    expect(await t.database.db.select({ id: orders.id }).from(orders)).toHaveLength(before.length);
  });

  it('refuses a rightly signed event dated more than 5 minutes ahead or behind', async () => {
    const secret = sandboxWebhookSecret(t.config.auth.secret ?? '');
    const payload = JSON.stringify({ id: 'evt_dated', type: 'sandbox.checkout.unknown', data: {} });
    const now = Math.floor(Date.now() / 1000);
    const send = (timestamp: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/sandbox',
        headers: {
          'content-type': 'application/json',
          'sandbox-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }),
        },
        payload,
      });
    for (const timestamp of [now + 86_400, now + 301, now - 86_400]) {
      expect((await send(timestamp)).statusCode, `signed at now${timestamp - now}`).toBe(400);
    }
    expect((await send(now + 60)).json()).toEqual({ received: true, outcome: 'ignored' });
  });

  it('answers 400, not 500, to ids that are not sandbox ids', async () => {
    for (const id of ['%00', 'cs_sandbox_%00', "cs_sandbox_'or'1'='1", 'x'.repeat(90)]) {
      const checkoutPage = await t.app.inject({ url: `/api/sandbox/checkout/${id}`, headers: { cookie: ann.cookie } });
      expect(checkoutPage.statusCode, id).toBe(400);
      expect(checkoutPage.json().message).toMatch(/not a sandbox checkout id|NUL character/);
      const payment = await pay(ann.cookie, id, 'ok');
      expect(payment.statusCode, id).toBe(400);
      const invoice = await t.app.inject({ url: `/api/sandbox/invoices/${id.replace('cs_', 'in_')}` });
      expect(invoice.statusCode, id).toBe(400);
      expect(invoice.json().message).toMatch(/not a sandbox invoice id|NUL character/);
    }
    const unknown = await t.app.inject({ url: `/api/sandbox/invoices/in_sandbox_${'A'.repeat(24)}` });
    expect(unknown.statusCode).toBe(404);
  });

  it('limits checkouts per customer', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', CHECKOUT_RATE_LIMIT_PER_USER: '2' });
    try {
      const carl = await signUpCustomer(limited, 'carl@example.com');
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/api/checkout',
          headers: { ...jsonHeaders, cookie: carl.cookie },
          payload: { productId: 'isp_proxies', quantity: 5 },
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.json().error.message).toMatch(/^Too many attempts/);
          expect(response.headers['retry-after']).toBeDefined();
        }
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it('never answers 500, whatever the body (fast-check)', async () => {
    const body = fc.record(
      {
        productId: fc.oneof(
          fc.constantFrom('isp_proxies', 'pk1_isp_proxies', 'residential_proxies'),
          fc.string(),
          fc.integer(),
        ),
        quantity: fc.oneof(fc.integer({ min: -5, max: 20_000 }), fc.double(), fc.string(), fc.constant(null)),
        coupon: fc.oneof(
          fc.constantFrom('WELCOME10', '', '  '),
          fc.string({ maxLength: 20 }),
          fc.integer(),
          fc.constant(null),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(body, fc.anything()), async (payload) => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/checkout',
          headers: { ...jsonHeaders, cookie: ann.cookie },
          payload: JSON.stringify(payload ?? null),
        });
        expect(response.statusCode).toBeLessThan(500);
        const answer = response.json();
        if (response.statusCode === 200) expect(answer.success).toBe(true);
        else expect(answer).toEqual({ success: false, error: { message: expect.any(String) } });
      }),
      { numRuns: 150 },
    );
  });
});
