import { checkoutMessages } from '@storefront/contract';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponRedemptions, orders, payments, promoCodes } from '../../db/schema.ts';
import { CHECKOUT_PAYABLE_MS } from '../../payments/provider.ts';
import { paidEvent, testBrand } from '../../test/payments.ts';
import { createTestApp, jsonHeaders, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { handlePaymentEvent } from '../billing/handle-event.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { createCoupon } from './coupons.ts';

/**
 * A code limited to N uses is used at most N times, however many checkouts start at once and on however
 * many instances: the checkout that starts holds one use until it is paid or its payment page can no longer be paid.
 */
describe('a coupon limited to one use', () => {
  let t: TestApp;
  let customers: { cookie: string; id: string }[];

  const checkout = (cookie: string, coupon: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/checkout',
      headers: { ...jsonHeaders, cookie },
      payload: { productId: 'isp_proxies', quantity: 5, coupon },
    });
  const pay = (cookie: string, checkoutUrl: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/sandbox/checkout/${checkoutUrl.split('/sandbox/checkout/')[1]}/pay`,
      headers: { ...jsonHeaders, cookie },
      payload: { card: 'ok' },
    });
  const oneUseCode = async (code: string) => {
    const { promo } = await createCoupon({
      db: t.database.db,
      code,
      name: 'Half off, once',
      duration: 'once',
      percentOff: 50,
      productIds: ['isp_proxies'],
      maxRedemptions: 1,
    });
    return promo.id;
  };
  const timesRedeemed = async (promoCodeId: string) =>
    (await t.database.db.select().from(promoCodes).where(eq(promoCodes.id, promoCodeId)))[0]?.timesRedeemed;
  const discountedPayments = async (promoCodeId: string) => {
    const used = await t.database.db.select({ id: orders.id }).from(orders).where(eq(orders.promoCodeId, promoCodeId));
    if (used.length === 0) return [];
    return t.database.db
      .select()
      .from(payments)
      .where(
        inArray(
          payments.orderId,
          used.map((order) => order.id),
        ),
      );
  };

  /** 20 checkouts at once, by the given customers in turn; every one that started is paid. */
  async function race(code: string, people: { cookie: string }[]) {
    const promoCodeId = await oneUseCode(code);
    const attempts = Array.from({ length: 20 }, (_, index) => people[index % people.length] as { cookie: string });
    const answers = await Promise.all(attempts.map((person) => checkout(person.cookie, code)));
    const started = answers.flatMap((answer, index) =>
      answer.statusCode === 200 ? [{ cookie: attempts[index]?.cookie ?? '', url: answer.json().checkoutUrl }] : [],
    );
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const answer of refused) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ success: false, error: { message: checkoutMessages.couponUsedUp } });
    }
    for (const { cookie, url } of started) expect((await pay(cookie, url)).json().status).toBe('paid');
    const paid = await discountedPayments(promoCodeId);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ amountCents: 625, discountCents: 625 });
    expect(await timesRedeemed(promoCodeId)).toBe(1);
    // Used: refused to everyone now.
    expect((await checkout(people[0]?.cookie ?? '', code)).json().error.message).toBe(checkoutMessages.couponUsedUp);
    return promoCodeId;
  }

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', CHECKOUT_RATE_LIMIT_PER_USER: '1000' });
    customers = [];
    for (const name of ['ann', 'bob', 'cy', 'dee', 'eve'])
      customers.push(await signUpCustomer(t, `${name}@example.com`));
  });
  afterAll(() => t.close());

  it('20 checkouts at once by one customer: exactly one gets the discount and one discounted payment is made', async () => {
    await race('HALFONCE', customers.slice(0, 1));
  });

  it('20 checkouts at once by five customers: exactly one gets the discount and one discounted payment is made', async () => {
    await race('HALFONCE5', customers);
  });

  it('a checkout whose page can no longer be paid gives its use back; a late payment is still honoured and recorded', async () => {
    const [ann, bob] = customers as [{ cookie: string; id: string }, { cookie: string; id: string }];
    const promoCodeId = await oneUseCode('HALFLATE');
    const first = await checkout(ann.cookie, 'HALFLATE');
    expect(first.statusCode).toBe(200);
    expect((await checkout(bob.cookie, 'HALFLATE')).json().error.message).toBe(checkoutMessages.couponUsedUp);

    // Ann's payment page has lived its time: the use is free again, and her page can no longer be paid in the sandbox.
    const [held] = await t.database.db.select().from(orders).where(eq(orders.promoCodeId, promoCodeId));
    if (!held) throw new Error('no order holds the code');
    await t.database.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - CHECKOUT_PAYABLE_MS - 10 * 60_000) })
      .where(eq(orders.id, held.id));
    const expired = await pay(ann.cookie, first.json().checkoutUrl);
    expect(expired.statusCode).toBe(409);
    expect(expired.json().message).toMatch(/expired/i);

    const second = await checkout(bob.cookie, 'HALFLATE');
    expect(second.statusCode).toBe(200);
    expect((await pay(bob.cookie, second.json().checkoutUrl)).json().status).toBe('paid');
    expect(await timesRedeemed(promoCodeId)).toBe(1);

    // A payment for Ann's old checkout still arrives (Stripe's delayed payment methods can confirm days later): she paid
    // the discounted price, so her order is honoured and the use recorded, over the limit.
    const outcome = await handlePaymentEvent({
      db: t.database.db,
      provider: 'sandbox',
      event: paidEvent(held.id),
      brand: testBrand,
    });
    expect(['delivered', 'processing']).toContain(outcome);
    expect(await timesRedeemed(promoCodeId)).toBe(2);
    const redemptions = await t.database.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.promoCodeId, promoCodeId));
    expect(redemptions.map((row) => row.email).sort()).toEqual(['ann@example.com', 'bob@example.com']);
  });

  it('a checkout the periodic job removes (never paid after a week) gives its use back', async () => {
    const promoCodeId = await oneUseCode('HALFBACK');
    const [ann, bob] = customers as [{ cookie: string; id: string }, { cookie: string; id: string }];
    expect((await checkout(ann.cookie, 'HALFBACK')).statusCode).toBe(200);
    await t.database.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(orders.promoCodeId, promoCodeId));
    const report = await runJobs(
      { db: t.database.db, brand: testBrand, mailer: t.mailer, log: t.app.log, provider: 'sandbox' },
      new Date(),
    );
    expect(report.abandonedRemoved).toBeGreaterThanOrEqual(1);
    expect((await checkout(bob.cookie, 'HALFBACK')).statusCode).toBe(200);
  });
});
