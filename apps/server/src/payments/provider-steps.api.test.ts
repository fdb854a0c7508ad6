import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, coupons, orders, promoCodes, providerSteps } from '../db/schema.ts';
import { createCoupon } from '../modules/coupons/coupons.ts';
import { type FakeStripe, startFakeStripe } from '../test/fake-stripe.ts';
import { createTestApp, jsonHeaders, signUpCustomer, type TestApp } from '../test/test-app.ts';
import { PROVIDER_UNREACHABLE } from './provider.ts';
import { stripeCouponId } from './stripe/calls.ts';

const WAIT_S = 2;
const HANGING = 10;
/** What "normal time" means here, on a busy two-core machine: far below the provider's wait. */
const NORMAL_MS = 1000;

/**
 * No network call inside a database transaction. While Stripe hangs on coupon calls, the
 * administrator's requests hold no connection and no lock, so the shop's other customers are served as usual; the
 * administrator is answered 503 within STRIPE_TIMEOUT_S; and a change left between its steps is finished or undone by
 * the periodic job.
 */
describe('changes at Stripe never inside a transaction (a stand-in that hangs)', () => {
  let fake: FakeStripe;
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let ann: { cookie: string; id: string };

  const timed = async <T>(run: () => Promise<T>) => {
    const started = performance.now();
    const value = await run();
    return { value, ms: performance.now() - started };
  };
  const waitFor = async (condition: () => boolean) => {
    const until = Date.now() + 10_000;
    while (!condition()) {
      if (Date.now() > until) throw new Error('the condition never came true');
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const newCoupon = (code: string) => ({
    code,
    name: `Coupon ${code}`,
    duration: 'once',
    discountType: 'percent_off',
    percentOff: 10,
    appliesToProducts: ['isp_proxies'],
  });

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_secret',
      STRIPE_API_URL: fake.url,
      STRIPE_TIMEOUT_S: String(WAIT_S),
      ADMIN_EMAILS: 'boss@example.com',
    });
    boss = await signUpCustomer(t, 'boss@example.com');
    ann = await signUpCustomer(t, 'ann@example.com');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it(`while ${HANGING} coupon creations hang at Stripe, another customer's reads, sign-in and checkout answer in normal time`, async () => {
    fake.hang('POST /v1/coupons');
    const creations = Array.from({ length: HANGING }, (_, index) =>
      timed(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/coupons',
          headers: { ...jsonHeaders, cookie: boss.cookie },
          payload: newCoupon(`HANG${index}`),
        }),
      ),
    );
    await waitFor(() => fake.held() === HANGING);

    const orders_ = await timed(() => t.app.inject({ url: '/api/orders', headers: { cookie: ann.cookie } }));
    expect(orders_.value.statusCode).toBe(200);
    expect(orders_.ms).toBeLessThan(NORMAL_MS);
    const signIn = await timed(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: jsonHeaders,
        payload: { email: 'ann@example.com', password: 'Str0ng!pass' },
      }),
    );
    expect(signIn.value.statusCode).toBe(200);
    expect(signIn.ms).toBeLessThan(NORMAL_MS);
    const checkout = await timed(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/checkout',
        headers: { ...jsonHeaders, cookie: ann.cookie },
        payload: { productId: 'isp_proxies', quantity: 5 },
      }),
    );
    expect(checkout.value.json()).toMatchObject({ success: true });
    expect(checkout.ms).toBeLessThan(NORMAL_MS);
    expect(fake.held()).toBe(HANGING);

    // The administrator waited at most STRIPE_TIMEOUT_S, and was told nothing changed.
    for (const { value, ms } of await Promise.all(creations)) {
      expect(value.statusCode).toBe(503);
      expect(value.json()).toEqual({ message: PROVIDER_UNREACHABLE });
      expect(ms).toBeLessThan(WAIT_S * 1000 + NORMAL_MS);
    }
    const listed = (
      await t.app.inject({ url: '/api/admin/coupons', headers: { origin: jsonHeaders.origin, cookie: boss.cookie } })
    ).json();
    expect(listed.coupons.map((coupon: { name: string }) => coupon.name)).not.toContain('Coupon HANG0');

    // Whatever Stripe may have made meanwhile is removed by the job, by the ids made from ours.
    fake.release();
    const steps = await t.database.db.select().from(providerSteps);
    expect(steps).toHaveLength(HANGING);
    await t.app.jobs.runOnce();
    expect(await t.database.db.select().from(providerSteps)).toEqual([]);
    for (const step of steps) {
      expect(fake.find(`DELETE /v1/coupons/${stripeCouponId(step.subjectId)}`)).toHaveLength(1);
    }
    // The codes are free again.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/coupons',
      headers: { ...jsonHeaders, cookie: boss.cookie },
      payload: newCoupon('HANG0'),
    });
    expect(again.json()).toEqual({ message: 'Coupon created!' });
  });

  it('the job finishes or undoes what a crash left between the steps', async () => {
    const db = t.database.db;
    const lapsed = (
      kind: 'coupon.create' | 'coupon.delete' | 'promo.toggle' | 'order.cancel',
      subjectId: string,
      detail: object,
    ) =>
      db.insert(providerSteps).values({
        kind,
        subjectId,
        detail: detail as Record<string, unknown>,
        claim: randomUUID(),
        claimedUntil: sql`now() - interval '1 second'`,
      });
    const actor = { id: boss.id, email: 'boss@example.com' };

    // A creation Stripe carried out before the process died: undone (nobody was told it worked).
    const madeThere = randomUUID();
    fake.objects.set(stripeCouponId(madeThere), { id: stripeCouponId(madeThere), object: 'coupon' });
    await lapsed('coupon.create', madeThere, { code: 'CRASHED' });

    // A deletion Stripe carried out: finished here. One it did not: undone (the coupon stays).
    const goneThere = await createCoupon({
      db,
      code: 'GONE',
      name: 'Gone at Stripe',
      duration: 'once',
      percentOff: 5,
      productIds: ['isp_proxies'],
      providerCouponId: 'coup_gone',
    });
    await lapsed('coupon.delete', goneThere.coupon.id, { providerId: 'coup_gone', actor });
    fake.objects.set('coup_kept', { id: 'coup_kept', object: 'coupon' });
    const keptThere = await createCoupon({
      db,
      code: 'KEPT',
      name: 'Kept at Stripe',
      duration: 'once',
      percentOff: 5,
      productIds: ['isp_proxies'],
      providerCouponId: 'coup_kept',
    });
    await lapsed('coupon.delete', keptThere.coupon.id, { providerId: 'coup_kept', actor });

    // A code's switch: undone by sending the state kept here.
    const switched = await createCoupon({
      db,
      code: 'SWITCH',
      name: 'Switched',
      duration: 'once',
      percentOff: 5,
      productIds: ['isp_proxies'],
      providerCouponId: 'coup_switch',
      providerPromoCodeId: 'promo_switch',
    });
    await lapsed('promo.toggle', switched.promo.id, { providerId: 'promo_switch', active: false });

    // A cancellation Stripe carried out: finished here.
    const [order] = await db
      .insert(orders)
      .values({
        userId: ann.id,
        productId: 'isp_proxies',
        quantity: 5,
        status: 'delivered',
        provider: 'stripe',
        providerSubscriptionId: 'sub_crashed',
        purchasedAt: new Date(),
        expiresAt: new Date(Date.now() + 20 * 86_400_000),
      })
      .returning();
    if (!order) throw new Error('no order');
    fake.objects.set('sub_crashed', { id: 'sub_crashed', object: 'subscription', cancel_at_period_end: 'true' });
    await lapsed('order.cancel', order.id, { providerSubscriptionId: 'sub_crashed' });

    await t.app.jobs.runOnce();
    expect(await db.select().from(providerSteps)).toEqual([]);
    expect(fake.objects.has(stripeCouponId(madeThere))).toBe(false);
    expect(await db.select().from(coupons).where(eq(coupons.id, madeThere))).toEqual([]);
    const deletedAt = async (id: string) =>
      (await db.select({ deletedAt: coupons.deletedAt }).from(coupons).where(eq(coupons.id, id)))[0]?.deletedAt;
    expect(await deletedAt(goneThere.coupon.id)).toBeInstanceOf(Date);
    expect(await deletedAt(keptThere.coupon.id)).toBeNull();
    const audit = await db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'coupon.delete'));
    expect(audit.map((entry) => entry.summary)).toContain('Coupon Gone at Stripe (GONE) deleted');
    expect(fake.find('POST /v1/promotion_codes/promo_switch').at(-1)?.params).toEqual({ active: 'true' });
    expect((await db.select().from(promoCodes).where(eq(promoCodes.id, switched.promo.id)))[0]?.active).toBe(true);
    expect((await db.select().from(orders).where(eq(orders.id, order.id)))[0]?.cancelled).toBe(true);
  });

  it("a customer's cancellation Stripe cannot take answers 503 in words, not 500, and changes nothing", async () => {
    const db = t.database.db;
    const [order] = await db
      .insert(orders)
      .values({
        userId: ann.id,
        productId: 'isp_proxies',
        quantity: 5,
        status: 'delivered',
        provider: 'stripe',
        providerSubscriptionId: 'sub_down',
        purchasedAt: new Date(),
        expiresAt: new Date(Date.now() + 20 * 86_400_000),
      })
      .returning();
    if (!order) throw new Error('no order');
    const cancel = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/orders/cancel',
        headers: { ...jsonHeaders, cookie: ann.cookie },
        payload: { id: order.id },
      });
    fake.failNext('POST /v1/subscriptions/sub_down', 500, 2);
    const failed = await cancel();
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toEqual({ message: PROVIDER_UNREACHABLE });
    expect((await db.select().from(orders).where(eq(orders.id, order.id)))[0]?.cancelled).toBe(false);
    // The job asks Stripe what became of it (it did not cancel), and leaves the order as it is.
    await t.app.jobs.runOnce();
    expect((await db.select().from(orders).where(eq(orders.id, order.id)))[0]?.cancelled).toBe(false);
    fake.failNext('POST /v1/subscriptions/sub_down');
    const refused = await cancel();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'The payment provider refused to cancel the subscription (parameter invalid integer). Nothing was changed.',
    );
    expect((await cancel()).statusCode).toBe(200);
    expect((await db.select().from(orders).where(eq(orders.id, order.id)))[0]?.cancelled).toBe(true);
  });
});
