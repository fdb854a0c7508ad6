import { checkoutMessages, couponMessages } from '@storefront/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createTestApp, type Method, signUpCustomer, type TestApp } from '../../test/test-app.ts';

describe('coupons in the admin console (sandbox provider)', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let ann: { cookie: string; id: string };
  let bob: { cookie: string; id: string };
  const call = (cookie: string, method: Method, url: string, payload?: object) =>
    callApi(t, method, url, { cookie, payload });
  const create = (payload: object) => call(boss.cookie, 'POST', '/api/admin/coupons', payload);
  const valid = {
    code: 'SPRING25',
    name: 'Spring sale',
    duration: 'repeating',
    durationInMonths: 3,
    discountType: 'percent_off',
    percentOff: 25,
    appliesToProducts: ['isp_proxies', 'pk1_isp_proxies'],
  };
  const buyWith = async (customer: { cookie: string }, coupon: string) => {
    const started = await call(customer.cookie, 'POST', '/api/checkout', {
      productId: 'isp_proxies',
      quantity: 5,
      coupon,
    });
    if (started.statusCode !== 200) return started.json().error.message as string;
    const id = String(started.json().checkoutUrl).split('/sandbox/checkout/')[1];
    await call(customer.cookie, 'POST', `/api/sandbox/checkout/${id}/pay`, { card: 'ok' });
    return 'paid';
  };

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

  it('offers the durations and products', async () => {
    expect((await call(boss.cookie, 'GET', '/api/admin/coupons/options')).json()).toEqual({
      durationOptions: [
        { value: 'once', label: 'Once' },
        { value: 'repeating', label: 'Repeating' },
        { value: 'forever', label: 'Forever' },
      ],
      products: [
        { id: 'isp_proxies', name: 'Elite ISP Proxies', active: true },
        { id: 'pk1_isp_proxies', name: 'PK1 ISP Proxies', active: true },
        { id: 'residential_proxies', name: 'Residential Proxies', active: true },
      ],
    });
  });

  it('refuses every bad coupon with the form’s own words', async () => {
    const cases: [object, string][] = [
      [{ code: '' }, couponMessages.codeRequired],
      [{ code: 'A'.repeat(16) }, couponMessages.codeTooLong],
      [{ name: 'ab' }, couponMessages.nameTooShort],
      [{ durationInMonths: null }, couponMessages.monthsRequired],
      [{ percentOff: 0 }, couponMessages.percentAboveZero],
      [{ percentOff: 101 }, couponMessages.percentAtMost100],
      [{ discountType: 'amount_off', percentOff: null, amountOff: 0 }, couponMessages.amountAboveZero],
      [
        { discountType: 'amount_off', percentOff: null, amountOff: 500, duration: 'forever', durationInMonths: null },
        couponMessages.foreverAmount,
      ],
      [{ appliesToProducts: [] }, couponMessages.productRequired],
      [{ maxRedemptions: 0 }, couponMessages.maxRedemptionsMin],
      // Numbers past their 32-bit columns were a failed insert (500); each is a sentence now.
      [{ discountType: 'amount_off', percentOff: null, amountOff: 9007199254740991 }, couponMessages.amountTooLarge],
      [{ discountType: 'amount_off', percentOff: null, amountOff: 2_147_483_648 }, couponMessages.amountTooLarge],
      [{ percentOff: 9007199254740991 }, couponMessages.percentAtMost100],
      [{ percentOff: 12.5 }, couponMessages.percentWhole],
      [{ maxRedemptions: 9007199254740991 }, couponMessages.maxRedemptionsMax],
      [{ durationInMonths: 2_147_483_648 }, couponMessages.monthsMax],
    ];
    for (const [change, message] of cases) {
      const refused = await create({ ...valid, ...change });
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json().message, message).toBe(message);
    }
    expect((await create({ ...valid, code: 'WELCOME10' })).json().message).toBe(couponMessages.codeTaken);
    expect((await call(boss.cookie, 'GET', '/api/admin/coupons')).json().coupons).toHaveLength(1);
  });

  it('creates, pauses and resumes a code; counts redemptions of paid checkouts by e-mail', async () => {
    expect((await create(valid)).json()).toEqual({ message: 'Coupon created!' });
    const fixed = await create({
      ...valid,
      code: 'FIVEOFF',
      name: 'Five dollars',
      discountType: 'amount_off',
      percentOff: null,
      amountOff: 500,
      duration: 'once',
      durationInMonths: null,
      maxRedemptions: 10,
    });
    expect(fixed.statusCode).toBe(200);
    const { coupons } = (await call(boss.cookie, 'GET', '/api/admin/coupons')).json();
    expect(coupons.map((coupon: { name: string }) => coupon.name)).toEqual([
      'Five dollars',
      'Spring sale',
      'Welcome: 10% off',
    ]);
    expect(coupons[1]).toMatchObject({
      percentOff: 25,
      amountOff: null,
      duration: 'repeating',
      durationInMonths: 3,
      products: [
        { id: 'isp_proxies', name: 'Elite ISP Proxies' },
        { id: 'pk1_isp_proxies', name: 'PK1 ISP Proxies' },
      ],
      promoCodes: [{ code: 'SPRING25', active: true, timesRedeemed: 0, maxRedemptions: null, expiresAt: null }],
    });
    expect(coupons[0]).toMatchObject({ amountOff: 500, promoCodes: [{ code: 'FIVEOFF', maxRedemptions: 10 }] });

    const spring = coupons[1].promoCodes[0].id;
    const toggle = (active: boolean) => call(boss.cookie, 'PATCH', `/api/admin/coupons/${spring}/toggle`, { active });
    expect((await toggle(false)).json()).toEqual({ message: 'Promo code SPRING25 is now inactive.' });
    expect(await buyWith(ann, 'spring25')).toBe(checkoutMessages.couponInactive);
    await toggle(true);
    expect(await buyWith(ann, 'SPRING25')).toBe('paid');
    expect(await buyWith(bob, 'SPRING25')).toBe('paid');
    expect(await buyWith(ann, 'SPRING25')).toBe('paid');
    expect(await buyWith(ann, 'FIVEOFF')).toBe('paid');

    expect((await call(boss.cookie, 'GET', '/api/admin/coupons/redemptions')).json()).toEqual({
      totalCoupons: 3,
      coupons: [
        {
          couponCode: 'SPRING25',
          totalRedemptions: 3,
          uniqueUsers: 2,
          promoCodeId: spring,
          percentOff: 25,
          amountOff: null,
          currency: 'usd',
          deletedAt: null,
        },
        {
          couponCode: 'FIVEOFF',
          totalRedemptions: 1,
          uniqueUsers: 1,
          promoCodeId: coupons[0].promoCodes[0].id,
          percentOff: null,
          amountOff: 500,
          currency: 'usd',
          deletedAt: null,
        },
      ],
      next: null,
    });
    expect((await call(boss.cookie, 'GET', `/api/admin/coupons/redemptions/${spring}/emails`)).json()).toEqual({
      emails: [
        { email: 'ann@example.com', count: 2 },
        { email: 'bob@example.com', count: 1 },
      ],
      next: null,
    });
  });

  it('deletes a coupon with its codes, and records every change', async () => {
    const { coupons } = (await call(boss.cookie, 'GET', '/api/admin/coupons')).json();
    const five = coupons.find((coupon: { name: string }) => coupon.name === 'Five dollars');
    const deleted = await call(boss.cookie, 'DELETE', `/api/admin/coupons/${five.id}`);
    expect(deleted.json()).toEqual({
      message: 'Coupon Five dollars deleted. Its redemption stays listed under Coupon Redemptions.',
    });
    expect((await call(boss.cookie, 'DELETE', `/api/admin/coupons/${five.id}`)).statusCode).toBe(404);
    expect(await buyWith(bob, 'FIVEOFF')).toBe(checkoutMessages.couponUnknown);
    expect((await call(boss.cookie, 'GET', '/api/admin/coupons')).json().coupons).toHaveLength(2);
    const log = (await call(boss.cookie, 'GET', '/api/admin/audit-log')).json();
    expect(log.entries.map((entry: { action: string }) => entry.action)).toEqual([
      'coupon.delete',
      'coupon.toggle',
      'coupon.toggle',
      'coupon.create',
      'coupon.create',
    ]);
  });
});
