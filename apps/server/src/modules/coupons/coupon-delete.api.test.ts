import { checkoutMessages, couponMessages } from '@storefront/contract';
import { and, eq, isNull } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, couponRedemptions, coupons, orders, promoCodes } from '../../db/schema.ts';
import { type FakeStripe, startFakeStripe } from '../../test/fake-stripe.ts';
import { callApi, createTestApp, type Method, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { renewalAmount } from '../billing/renewal-amount.ts';

type Customer = { cookie: string; id: string };

const call = (t: TestApp, cookie: string, method: Method, url: string, payload?: object) =>
  callApi(t, method, url, { cookie, payload });
const couponPayload = (code: string, name: string, percentOff: number) => ({
  code,
  name,
  duration: 'repeating',
  durationInMonths: 3,
  discountType: 'percent_off',
  percentOff,
  appliesToProducts: ['isp_proxies'],
});
type Redemption = { couponCode: string; percentOff: number | null; deletedAt: string | null; totalRedemptions: number };

describe('deleting a used coupon keeps its sales history (sandbox provider)', () => {
  let t: TestApp;
  let boss: Customer;
  let ann: Customer;
  let bob: Customer;
  const admin = (method: Method, url: string, payload?: object) => call(t, boss.cookie, method, url, payload);
  const start = (customer: Customer, coupon: string) =>
    call(t, customer.cookie, 'POST', '/api/checkout', { productId: 'isp_proxies', quantity: 4, coupon });
  const pay = (customer: Customer, checkoutUrl: string) =>
    call(t, customer.cookie, 'POST', `/api/sandbox/checkout/${checkoutUrl.split('/sandbox/checkout/')[1]}/pay`, {
      card: 'ok',
    });
  const buy = async (customer: Customer, coupon: string) => {
    const started = await start(customer, coupon);
    expect(started.statusCode, started.body).toBe(200);
    expect((await pay(customer, started.json().checkoutUrl)).statusCode).toBe(200);
  };
  const redemptions = async () =>
    (await admin('GET', '/api/admin/coupons/redemptions')).json() as { coupons: Redemption[]; totalCoupons: number };

  beforeAll(async () => {
    t = await createTestApp({
      ADMIN_EMAILS: 'boss@example.com',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
    });
    boss = await signUpCustomer(t, 'boss@example.com');
    ann = await signUpCustomer(t, 'ann@example.com');
    bob = await signUpCustomer(t, 'bob@example.com');
  });
  afterAll(() => t.close());

  it('keeps the redemptions and the orders’ link, shows them with the code and discount, and frees the code', async () => {
    const db = t.database.db;
    expect((await admin('POST', '/api/admin/coupons', couponPayload('LAUNCH', 'Launch', 20))).statusCode).toBe(200);
    await buy(ann, 'LAUNCH');
    await buy(bob, 'launch');
    // A checkout started before the delete: its page still charges the price it showed.
    const pending = await start(bob, 'LAUNCH');
    expect(pending.statusCode).toBe(200);

    const [launch] = await db.select().from(promoCodes).where(eq(promoCodes.code, 'LAUNCH'));
    if (!launch) throw new Error('no LAUNCH code');
    const deleted = await admin('DELETE', `/api/admin/coupons/${launch.couponId}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({
      message: 'Coupon Launch deleted. Its 2 redemptions stay listed under Coupon Redemptions.',
    });

    // Gone from the console and from checkout; a second delete, or switching its code, finds nothing.
    expect((await admin('GET', '/api/admin/coupons')).json().coupons).toEqual([
      expect.objectContaining({ name: 'Welcome: 10% off' }),
    ]);
    const refused = await start(ann, 'LAUNCH');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(checkoutMessages.couponUnknown);
    expect((await admin('DELETE', `/api/admin/coupons/${launch.couponId}`)).json()).toEqual({
      message: couponMessages.couponNotFound,
    });
    expect((await admin('PATCH', `/api/admin/coupons/${launch.id}/toggle`, { active: false })).statusCode).toBe(404);

    // The checkout started before is honoured, and its use recorded with the others.
    expect((await pay(bob, pending.json().checkoutUrl)).statusCode).toBe(200);
    const kept = await db.select().from(couponRedemptions).where(eq(couponRedemptions.promoCodeId, launch.id));
    expect(kept.map((row) => row.email).sort()).toEqual(['ann@example.com', 'bob@example.com', 'bob@example.com']);
    const used = await db.select().from(orders).where(eq(orders.promoCodeId, launch.id));
    expect(used.map((order) => order.id).sort()).toEqual(kept.map((row) => row.orderId).sort());
    expect(used.every((order) => order.status === 'delivered' && order.discountCents === 200)).toBe(true);

    // A renewal of an order that used it still gets its discount: the coupon lasts three months.
    const annOrder = used.find((order) => order.userId === ann.id);
    if (!annOrder) throw new Error('no order of ann');
    expect(await db.transaction((tx) => renewalAmount(tx, annOrder))).toEqual({ amountCents: 800, discountCents: 200 });

    const listed = await redemptions();
    expect(listed.totalCoupons).toBe(1);
    expect(listed.coupons).toEqual([
      {
        couponCode: 'LAUNCH',
        totalRedemptions: 3,
        uniqueUsers: 2,
        promoCodeId: launch.id,
        percentOff: 20,
        amountOff: null,
        currency: 'usd',
        deletedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    // Its customers stay listed too, from the deleted coupon's own code.
    expect((await admin('GET', `/api/admin/coupons/redemptions/${launch.id}/emails`)).json().emails).toEqual([
      { email: 'ann@example.com', count: 1 },
      { email: 'bob@example.com', count: 2 },
    ]);

    // A new coupon may take the code; the two are listed apart, each with its own discount.
    expect((await admin('POST', '/api/admin/coupons', couponPayload('launch', 'Launch again', 50))).statusCode).toBe(
      200,
    );
    const taken = await admin('POST', '/api/admin/coupons', couponPayload('LAUNCH', 'Launch thrice', 30));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(couponMessages.codeTaken);
    await buy(ann, 'LAUNCH');
    const [again] = await db
      .select()
      .from(promoCodes)
      .where(and(eq(promoCodes.code, 'launch'), isNull(promoCodes.deletedAt)));
    const [latest] = await db
      .select()
      .from(orders)
      .where(eq(orders.promoCodeId, again?.id ?? ''));
    expect(latest?.discountCents).toBe(500);
    const both = (await redemptions()).coupons.map(({ couponCode, percentOff, deletedAt, totalRedemptions }) => ({
      couponCode,
      percentOff,
      deleted: deletedAt !== null,
      totalRedemptions,
    }));
    expect(both).toEqual([
      { couponCode: 'LAUNCH', percentOff: 20, deleted: true, totalRedemptions: 3 },
      { couponCode: 'launch', percentOff: 50, deleted: false, totalRedemptions: 1 },
    ]);

    // The database itself refuses to erase a used code.
    await expect(db.delete(promoCodes).where(eq(promoCodes.id, launch.id))).rejects.toThrow();
    await expect(db.delete(coupons).where(eq(coupons.id, launch.couponId))).rejects.toThrow();

    const [audit] = await db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'coupon.delete'));
    expect(audit).toMatchObject({ summary: 'Coupon Launch (LAUNCH) deleted' });
    expect(audit?.details).toMatchObject({ couponId: launch.couponId, codes: ['LAUNCH'], redemptions: 2 });
  });
});

describe('deleting a used coupon with Stripe (a local stand-in for its API)', () => {
  const WEBHOOK_SECRET = 'whsec_test_secret';
  let fake: FakeStripe;
  let t: TestApp;
  let boss: Customer;
  let ann: Customer;
  const admin = (method: Method, url: string, payload?: object) => call(t, boss.cookie, method, url, payload);
  const paidEvent = (orderId: string) =>
    JSON.stringify({
      id: `evt_${orderId}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: 1_795_300_000,
      data: {
        object: {
          id: `cs_for_${orderId}`,
          object: 'checkout.session',
          payment_status: 'paid',
          client_reference_id: orderId,
          metadata: { orderId },
          invoice: `in_${orderId.slice(0, 8)}`,
          subscription: `sub_${orderId.slice(0, 8)}`,
          customer: 'cus_123',
          customer_details: { email: 'ann@example.com' },
        },
      },
    });
  const deliver = (payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      payload,
    });

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      ADMIN_EMAILS: 'boss@example.com',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    });
    boss = await signUpCustomer(t, 'boss@example.com');
    ann = await signUpCustomer(t, 'ann@example.com');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('deletes the coupon at Stripe, keeps its redemption here, and lets a new coupon take the code at Stripe too', async () => {
    const db = t.database.db;
    expect(
      (await admin('POST', '/api/admin/coupons', couponPayload('STRIPEDEL', 'Stripe delete', 10))).statusCode,
    ).toBe(200);
    const [code] = await db.select().from(promoCodes).where(eq(promoCodes.code, 'STRIPEDEL'));
    const [coupon] = await db
      .select()
      .from(coupons)
      .where(eq(coupons.id, code?.couponId ?? ''));
    if (!code || !coupon?.providerCouponId) throw new Error('the coupon was not made at Stripe');

    const started = await call(t, ann.cookie, 'POST', '/api/checkout', {
      productId: 'isp_proxies',
      quantity: 4,
      coupon: 'STRIPEDEL',
    });
    expect(started.statusCode).toBe(200);
    expect(fake.find('POST /v1/checkout/sessions').at(-1)?.params['discounts[0][promotion_code]']).toBe(
      code.providerPromoCodeId,
    );
    const [order] = await db.select().from(orders).where(eq(orders.promoCodeId, code.id));
    expect((await deliver(paidEvent(order?.id ?? ''))).statusCode).toBe(200);

    const deleted = await admin('DELETE', `/api/admin/coupons/${coupon.id}`);
    expect(deleted.json()).toEqual({
      message: 'Coupon Stripe delete deleted. Its redemption stays listed under Coupon Redemptions.',
    });
    expect(fake.find(`DELETE /v1/coupons/${coupon.providerCouponId}`)).toHaveLength(1);
    expect(fake.objects.has(coupon.providerCouponId)).toBe(false);

    expect(await db.select().from(couponRedemptions).where(eq(couponRedemptions.promoCodeId, code.id))).toHaveLength(1);
    expect(
      (
        await db
          .select()
          .from(orders)
          .where(eq(orders.id, order?.id ?? ''))
      )[0]?.promoCodeId,
    ).toBe(code.id);
    expect((await admin('GET', '/api/admin/coupons/redemptions')).json().coupons).toEqual([
      expect.objectContaining({
        couponCode: 'STRIPEDEL',
        percentOff: 10,
        totalRedemptions: 1,
        deletedAt: expect.any(String),
      }),
    ]);

    // Stripe keeps a code unique among active promotion codes; the old one went with its coupon, so the code is free.
    expect((await admin('POST', '/api/admin/coupons', couponPayload('STRIPEDEL', 'Stripe again', 30))).statusCode).toBe(
      200,
    );
    const promotions = fake.find('POST /v1/promotion_codes').filter((request) => request.params.code === 'STRIPEDEL');
    expect(promotions).toHaveLength(2);
    const [fresh] = await db
      .select()
      .from(promoCodes)
      .where(and(eq(promoCodes.code, 'STRIPEDEL'), isNull(promoCodes.deletedAt)));
    expect(fresh?.providerPromoCodeId).not.toBe(code.providerPromoCodeId);
    const again = await call(t, ann.cookie, 'POST', '/api/checkout', {
      productId: 'isp_proxies',
      quantity: 4,
      coupon: 'STRIPEDEL',
    });
    expect(again.statusCode).toBe(200);
    expect(fake.find('POST /v1/checkout/sessions').at(-1)?.params['discounts[0][promotion_code]']).toBe(
      fresh?.providerPromoCodeId,
    );
  });
});
