import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, orders, payments, proxyIps } from '../../db/schema.ts';
import { addMonths } from '../../lib/dates.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { createCoupon } from '../coupons/coupons.ts';
import { jobTime } from '../jobs/clock.ts';
import { runJobs } from '../jobs/run-jobs.ts';

const DAY = 86_400_000;

describe('subscriptions over time (sandbox provider, test clock)', () => {
  let t: TestApp;
  let admin: { cookie: string; id: string };

  const post = (cookie: string, url: string, payload: object) => callApi(t, 'POST', url, { cookie, payload });
  const buy = async (customer: { cookie: string }, productId = 'isp_proxies', quantity = 5, coupon?: string) => {
    const started = (await post(customer.cookie, '/api/checkout', { productId, quantity, coupon })).json();
    const id = String(started.checkoutUrl).split('/sandbox/checkout/')[1];
    expect((await post(customer.cookie, `/api/sandbox/checkout/${id}/pay`, { card: 'ok' })).json().status).toBe('paid');
    const list = (await t.app.inject({ url: '/api/orders', headers: { cookie: customer.cookie } })).json();
    return list[0] as { id: string; expiration_time: string; purchase_time: string; proxies: string[] };
  };
  const clock = (to: Date) => post(admin.cookie, '/api/admin/sandbox/clock', { now: to.toISOString() });
  /** Moves the clock to `date`, or just past its current time when it is already later. */
  const moveTo = async (date: Date) =>
    clock(new Date(Math.max(date.getTime(), (await jobTime(t.database.db, true)).getTime() + 1000)));
  const orderRow = async (id: string) => (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0];
  const history = async (cookie: string) =>
    (await t.app.inject({ url: '/api/orders/history', headers: { cookie } })).json() as {
      order_id: string;
      total: number;
    }[];
  const mailsTo = (email: string, subject: RegExp) =>
    t.mails.filter((mail) => mail.to === email && subject.test(mail.subject));

  beforeAll(async () => {
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
      ADMIN_EMAILS: 'ops@example.com',
    });
    admin = await signUpCustomer(t, 'ops@example.com');
  });
  afterAll(() => t.close());

  it('lets only an administrator move the clock, only forward', async () => {
    const customer = await signUpCustomer(t, 'nosy@example.com');
    expect(
      (await post(customer.cookie, '/api/admin/sandbox/clock', { now: new Date(Date.now() + DAY).toISOString() }))
        .statusCode,
    ).toBe(403);
    const back = await clock(new Date(Date.now() - DAY));
    expect(back.statusCode).toBe(400);
    expect(back.json().message).toMatch(/only moves forward/);
    expect((await post(admin.cookie, '/api/admin/sandbox/clock', { now: 'next tuesday' })).statusCode).toBe(400);

    // Too far ahead: refused with words, and the clock is not stuck there (it stays where it was and still moves).
    const before = await jobTime(t.database.db, true);
    for (const far of ['9999-12-31T00:00:00Z', new Date(Date.now() + 6 * 365 * DAY).toISOString()]) {
      const refused = await post(admin.cookie, '/api/admin/sandbox/clock', { now: far });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/at most 5 years ahead of the real time/);
    }
    expect((await jobTime(t.database.db, true)).getTime()).toBeLessThan(before.getTime() + 60_000);
    expect((await clock(new Date(before.getTime() + 1000))).statusCode).toBe(200);
  });

  it('a failed renewal keeps the IPs for 3 days; a new card pays and clears the flag', async () => {
    const bob = await signUpCustomer(t, 'bob@example.com');
    const order = await buy(bob);
    expect((await post(bob.cookie, `/api/sandbox/orders/${order.id}/card`, { card: 'declined' })).json().card).toBe(
      'declined',
    );
    const due = new Date(order.expiration_time);
    const report = (await moveTo(new Date(due.getTime() + 60_000))).json();
    expect(report.failed).toBeGreaterThanOrEqual(1);

    const failed = (await t.app.inject({ url: '/api/orders', headers: { cookie: bob.cookie } })).json()[0];
    expect(failed).toMatchObject({ id: order.id, payment_failed: true });
    expect(failed.proxies).toHaveLength(5);
    const [mail] = mailsTo('bob@example.com', /^Payment failed/);
    expect(mail?.text).toMatch(/keep working until/);
    expect(mail?.text).toContain(`/sandbox/billing/${order.id}`);

    const billing = (await post(bob.cookie, `/api/sandbox/orders/${order.id}/card`, { card: 'ok' })).json();
    expect(billing).toMatchObject({ card: 'ok', paymentFailed: false, graceEndsAt: null });
    expect((await orderRow(order.id))?.expiresAt?.toISOString()).toBe(addMonths(due, 1).toISOString());
    expect((await history(bob.cookie)).filter((entry) => entry.order_id === order.id)).toHaveLength(2);
    // Another customer cannot touch the card.
    expect((await post(admin.cookie, `/api/sandbox/orders/${order.id}/card`, { card: 'ok' })).statusCode).toBe(404);
  });

  it('after the grace period the order expires and its IPs are released, burnt, and out of stock', async () => {
    const cara = await signUpCustomer(t, 'cara@example.com');
    const order = await buy(cara, 'pk1_isp_proxies', 5);
    const stockBefore = (await t.app.inject({ url: '/api/pricing' }))
      .json()
      .plans.find((plan: { id: string }) => plan.id === 'pk1_isp_proxies').stock;
    await post(cara.cookie, `/api/sandbox/orders/${order.id}/card`, { card: 'declined' });
    const due = new Date(order.expiration_time);
    await moveTo(new Date(due.getTime() + 60_000));
    expect((await orderRow(order.id))?.paymentFailed).toBe(true);
    const row = await orderRow(order.id);
    const report = (await moveTo(new Date((row?.graceEndsAt?.getTime() ?? 0) + 60_000))).json();
    expect(report.expired).toBeGreaterThanOrEqual(1);

    expect((await orderRow(order.id))?.status).toBe('expired');
    const listed = (await t.app.inject({ url: '/api/orders', headers: { cookie: cara.cookie } })).json()[0];
    // It ended with its paid period (the renewal due then was never paid), whenever the job ran.
    expect(listed).toMatchObject({ id: order.id, proxies: [], expired: true, expiration_time: order.expiration_time });
    const burnt = await t.database.db
      .select()
      .from(proxyIps)
      .where(eq(proxyIps.endpoint, order.proxies[0] ?? ''));
    expect(burnt[0]).toMatchObject({ assignedOrderId: null, needRotated: true });
    const stockAfter = (await t.app.inject({ url: '/api/pricing' }))
      .json()
      .plans.find((plan: { id: string }) => plan.id === 'pk1_isp_proxies').stock;
    expect(stockAfter).toBe(stockBefore);
    expect(mailsTo('cara@example.com', /has expired$/)).toHaveLength(1);
    expect((await history(cara.cookie)).filter((entry) => entry.order_id === order.id)).toHaveLength(1);
  });

  it('a cancelled order stays active until its period ends, then expires, and is not renewed', async () => {
    const dan = await signUpCustomer(t, 'dan@example.com');
    const order = await buy(dan);
    expect((await post(dan.cookie, '/api/orders/cancel', { id: order.id })).statusCode).toBe(200);
    const due = new Date(order.expiration_time);
    expect((await orderRow(order.id))?.status).toBe('delivered');
    await moveTo(new Date(due.getTime() + 60_000));
    const row = await orderRow(order.id);
    expect(row?.status).toBe('expired');
    // The end of the paid period, a month ahead of the real time the job ran at (the test clock was moved there).
    expect(due.getTime()).toBeGreaterThan(Date.now() + 20 * DAY);
    expect(row?.expiresAt?.toISOString()).toBe(order.expiration_time);
    const listed = (await t.app.inject({ url: '/api/orders', headers: { cookie: dan.cookie } })).json()[0];
    expect(listed).toMatchObject({
      id: order.id,
      expired: true,
      cancelled: true,
      expiration_time: order.expiration_time,
    });
    expect((await history(dan.cookie)).filter((entry) => entry.order_id === order.id)).toHaveLength(1);
    expect(await t.database.db.select().from(proxyIps).where(eq(proxyIps.assignedOrderId, order.id))).toEqual([]);
  });

  it('a failure in the middle of a step rolls it back, and the next run completes it', async () => {
    const eve = await signUpCustomer(t, 'eve@example.com');
    const order = await buy(eve);
    const at = new Date(
      Math.max(Date.parse(order.expiration_time), (await jobTime(t.database.db, true)).getTime()) + 60_000,
    );
    let failOnce = true;
    const brand = {
      appUrl: 'http://localhost:3000',
      get brandName() {
        if (failOnce) {
          failOnce = false;
          throw new Error('disk full');
        }
        return 'Proxy Storefront';
      },
    };
    const ctx = {
      db: t.database.db,
      brand,
      mailer: { delivers: true, async send() {} },
      log: t.app.log,
      provider: 'sandbox' as const,
    };
    await expect(runJobs(ctx, at)).rejects.toThrow('disk full');
    expect(await t.database.db.select().from(payments).where(eq(payments.orderId, order.id))).toHaveLength(1);
    expect((await orderRow(order.id))?.expiresAt?.toISOString()).toBe(order.expiration_time);

    await runJobs(ctx, at);
    expect(await t.database.db.select().from(payments).where(eq(payments.orderId, order.id))).toHaveLength(2);
    const keys = await t.database.db.select({ key: emailOutbox.dedupeKey }).from(emailOutbox);
    expect(new Set(keys.map((row) => row.key)).size).toBe(keys.length);
  });
  it('a checkout paid while the test clock is ahead starts its period at the clock, and the job charges nothing early', async () => {
    await moveTo(new Date(Date.now() + 40 * DAY));
    const businessNow = await jobTime(t.database.db, true);
    const fay = await signUpCustomer(t, 'fay@example.com');
    const order = await buy(fay);
    const purchased = new Date(order.purchase_time);
    expect(purchased.getTime()).toBeGreaterThanOrEqual(businessNow.getTime());
    expect(purchased.getTime()).toBeLessThan(businessNow.getTime() + 60_000);
    expect(order.expiration_time).toBe(addMonths(purchased, 1).toISOString());
    // The periodic job at the clock's time finds nothing due: no renewal a month early, let alone a run of them.
    await runJobs(
      {
        db: t.database.db,
        brand: { appUrl: 'http://localhost:3000', brandName: 'Proxy Storefront' },
        mailer: { delivers: true, async send() {} },
        log: t.app.log,
        provider: 'sandbox',
      },
      await jobTime(t.database.db, true),
    );
    expect(await t.database.db.select().from(payments).where(eq(payments.orderId, order.id))).toHaveLength(1);
    expect((await orderRow(order.id))?.expiresAt?.toISOString()).toBe(order.expiration_time);
  });

  // Last: it moves the shared clock a year on.
  it('a year of monthly renewals: 12 history entries, a receipt each, the right expiration_time', async () => {
    const ann = await signUpCustomer(t, 'ann@example.com');
    const order = await buy(ann, 'isp_proxies', 5, 'WELCOME10');
    const purchased = new Date(order.purchase_time);
    const report = (await clock(new Date(addMonths(purchased, 11).getTime() + DAY))).json();
    expect(report.renewed).toBeGreaterThanOrEqual(11);

    const entries = (await history(ann.cookie)).filter((entry) => entry.order_id === order.id);
    expect(entries).toHaveLength(12);
    // WELCOME10 is a 'once' coupon: only the first payment is discounted.
    expect(entries.map((entry) => entry.total).sort((a, b) => a - b)).toEqual([1125, ...Array(11).fill(1250)]);
    const row = await orderRow(order.id);
    expect(row?.expiresAt?.toISOString()).toBe(addMonths(purchased, 12).toISOString());
    expect(row?.paymentFailed).toBe(false);
    expect(mailsTo('ann@example.com', /^Renewal receipt/)).toHaveLength(11);
    expect(mailsTo('ann@example.com', /^Receipt/)).toHaveLength(1);

    // Running the job again at the same time changes nothing and sends nothing.
    const mailsBefore = t.mails.length;
    const again = (
      await post(admin.cookie, '/api/admin/sandbox/clock', {
        now: new Date(Date.parse(report.now) + 1000).toISOString(),
      })
    ).json();
    expect(again.renewed).toBe(0);
    expect((await history(ann.cookie)).filter((entry) => entry.order_id === order.id)).toHaveLength(12);
    expect(t.mails.length).toBe(mailsBefore);
  });
});

/** On an app of its own: the shared clock of the suite above is a year ahead by the end, which would renew these orders. */
describe('renewal amounts with a lasting coupon', () => {
  let c: TestApp;
  let operator: { cookie: string };
  beforeAll(async () => {
    c = await createTestApp({
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
      ADMIN_EMAILS: 'ops@example.com',
    });
    operator = await signUpCustomer(c, 'ops@example.com');
  });
  afterAll(() => c.close());

  const post = (cookie: string, url: string, payload: object) => callApi(c, 'POST', url, { cookie, payload });
  const buy = async (customer: { cookie: string }, code: string) => {
    const started = (
      await post(customer.cookie, '/api/checkout', { productId: 'isp_proxies', quantity: 5, coupon: code })
    ).json();
    const id = String(started.checkoutUrl).split('/sandbox/checkout/')[1];
    expect((await post(customer.cookie, `/api/sandbox/checkout/${id}/pay`, { card: 'ok' })).json().status).toBe('paid');
    const list = (await c.app.inject({ url: '/api/orders', headers: { cookie: customer.cookie } })).json();
    return list[0] as { id: string; expiration_time: string };
  };
  const moveTo = async (date: Date) =>
    post(operator.cookie, '/api/admin/sandbox/clock', {
      now: new Date(Math.max(date.getTime(), (await jobTime(c.database.db, true)).getTime() + 1000)).toISOString(),
    });
  it('a lasting coupon discounts a renewal paid from the billing page exactly as one the job charges', async () => {
    for (const duration of ['forever', 'repeating'] as const) {
      const code = `${duration.slice(0, 6).toUpperCase()}10`;
      await createCoupon({
        db: c.database.db,
        name: `10% ${duration}`,
        code,
        duration,
        durationInMonths: 3,
        percentOff: 10,
        productIds: ['isp_proxies'],
      });
      const byJob = await signUpCustomer(c, `${duration}-job@example.com`);
      const byPage = await signUpCustomer(c, `${duration}-page@example.com`);
      const jobOrder = await buy(byJob, code);
      const pageOrder = await buy(byPage, code);
      await post(byPage.cookie, `/api/sandbox/orders/${pageOrder.id}/card`, { card: 'declined' });
      const due = Math.max(Date.parse(jobOrder.expiration_time), Date.parse(pageOrder.expiration_time));
      await moveTo(new Date(due + 60_000));
      expect((await c.database.db.select().from(orders).where(eq(orders.id, pageOrder.id)))[0]?.paymentFailed).toBe(
        true,
      );
      await post(byPage.cookie, `/api/sandbox/orders/${pageOrder.id}/card`, { card: 'ok' });

      const renewalOf = async (orderId: string) => {
        const rows = await c.database.db
          .select()
          .from(payments)
          .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'renewal')));
        expect(rows, `${duration}: one renewal of ${orderId}`).toHaveLength(1);
        return { amountCents: rows[0]?.amountCents, discountCents: rows[0]?.discountCents };
      };
      const expected = { amountCents: 1125, discountCents: 125 };
      expect(await renewalOf(jobOrder.id), `${duration}, charged by the job`).toEqual(expected);
      expect(await renewalOf(pageOrder.id), `${duration}, paid from the billing page`).toEqual(expected);
    }
  });
});
