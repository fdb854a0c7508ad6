import {
  type CreatedApiKey,
  KB_PER_GB,
  type ResidentialStock,
  type SandboxClockReport,
  type TopUp,
  topUpMessages,
} from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emailOutbox,
  orders,
  payments,
  residentialAccounts,
  residentialPool,
  topUpSettings,
  topUps,
} from '../../db/schema.ts';
import { createSandboxProvider } from '../../payments/sandbox-provider.ts';
import { testBrand } from '../../test/payments.ts';
import { callApi, createTestApp, type Method, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { runTopUps } from '../billing/run-top-ups.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;
const HOUR = 3_600_000;

describe('automatic top-up of residential data (sandbox)', () => {
  let t: TestApp;
  const provider = () => createSandboxProvider({ appUrl: testBrand.appUrl, authSecret: 'a'.repeat(32) });
  const call = (method: Method, url: string, who: { cookie: string }, payload?: unknown) =>
    callApi(t, method, url, { cookie: who.cookie, ...(payload !== undefined && { payload }) });
  const settings = (who: { cookie: string }) => call('GET', '/api/residential/top-up', who);
  const save = (who: { cookie: string }, body: object) =>
    call('PUT', '/api/residential/top-up', who, {
      enabled: true,
      thresholdGb: 2,
      amountGb: 5,
      monthlyCapDollars: 100,
      maxPerDay: 3,
      ...body,
    });
  /** Opens a card page and saves the sandbox's test card (or its declining card) on it, as the customer does. */
  const saveCard = async (who: { cookie: string }, card: 'ok' | 'declined') => {
    const { url } = (await call('POST', '/api/residential/top-up/card', who)).json<{ url: string }>();
    const id = url.split('/').pop() ?? '';
    const saved = await call('POST', `/api/sandbox/card-setups/${id}`, who, { card });
    expect(saved.statusCode, saved.body).toBe(200);
    return id;
  };
  const account = async (userId: string, totalGb: number, usedGb: number) => {
    await t.database.db
      .insert(residentialAccounts)
      .values({
        userId,
        username: `topup${userId.slice(0, 8)}`,
        password: 'secretpass',
        totalKb: totalGb * KB_PER_GB,
        usedKb: usedGb * KB_PER_GB,
      })
      .onConflictDoUpdate({
        target: residentialAccounts.userId,
        set: { totalKb: totalGb * KB_PER_GB, usedKb: usedGb * KB_PER_GB },
      });
  };
  const totalKbOf = async (userId: string) =>
    (await t.database.db.select().from(residentialAccounts).where(eq(residentialAccounts.userId, userId)))[0]?.totalKb;
  let boss: { cookie: string };
  /** The sandbox's clock moved to `now` by an administrator, which runs the job at that time (reads count by it). */
  const runAt = async (now: Date) => {
    const moved = await call('POST', '/api/admin/sandbox/clock', boss, { now: now.toISOString() });
    expect(moved.statusCode, moved.body).toBe(200);
    return moved.json<SandboxClockReport>();
  };

  beforeAll(async () => {
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
      ADMIN_EMAILS: 'boss@example.com',
    });
    boss = await signUpCustomer(t, 'boss@example.com');
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the defaults, refuses to turn on without a card or under one top-up, and checks every field', async () => {
    const ann = await signUpCustomer(t, 'ann@example.com');
    const first = (await settings(ann)).json<TopUp>();
    expect(first).toMatchObject({ enabled: false, card: null, history: [], waiting: null, maxPerDay: 3 });
    expect(first.unitPriceCents).toBeGreaterThan(0);

    const noCard = await save(ann, {});
    expect(noCard.statusCode).toBe(400);
    expect(noCard.json().message).toBe(topUpMessages.needCard);

    for (const [body, words] of [
      [{ thresholdGb: 0 }, topUpMessages.thresholdRule],
      [{ amountGb: 1.5 }, topUpMessages.amountRule],
      [{ monthlyCapDollars: -1 }, topUpMessages.capRule],
      [{ maxPerDay: 4 }, topUpMessages.perDayRule],
      [{ extra: 1 }, 'Send enabled, thresholdGb, amountGb, monthlyCapDollars and maxPerDay only.'],
    ] as const) {
      const refused = await save(ann, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().message).toContain(words);
    }

    await saveCard(ann, 'ok');
    const withCard = (await settings(ann)).json<TopUp>();
    expect(withCard.card?.label).toBe('Sandbox test card •••• 4242');
    const tooLow = await save(ann, { amountGb: 100, monthlyCapDollars: 10 });
    expect(tooLow.statusCode).toBe(400);
    expect(tooLow.json().message).toMatch(/^The monthly cap of \$10\.00 is less than one top-up \(\$\d+/);
    const on = await save(ann, {});
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<TopUp>()).toMatchObject({ enabled: true, thresholdGb: 2, amountGb: 5, monthlyCapDollars: 100 });
    // Off again: with no data at all she is under any threshold, and the tests below count their own top-ups.
    expect((await save(ann, { enabled: false })).statusCode).toBe(200);
  });

  it("keeps a card page to its customer, once: another's is a 404, a used one a 409", async () => {
    const bea = await signUpCustomer(t, 'bea@example.com');
    const cid = await signUpCustomer(t, 'cid@example.com');
    const { url } = (await call('POST', '/api/residential/top-up/card', bea)).json<{ url: string }>();
    expect(url).toMatch(/^http:\/\/localhost:3000\/sandbox\/card\/seti_sandbox_[0-9a-f]{24}$/);
    const id = url.split('/').pop() ?? '';
    expect((await call('GET', `/api/sandbox/card-setups/${id}`, cid)).statusCode).toBe(404);
    const stolen = await call('POST', `/api/sandbox/card-setups/${id}`, cid, { card: 'ok' });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().message).toBe(topUpMessages.noSetupPage);
    expect((await settings(cid)).json<TopUp>().card).toBeNull();
    expect((await call('POST', `/api/sandbox/card-setups/${id}`, bea, { card: 'ok' })).statusCode).toBe(200);
    const again = await call('POST', `/api/sandbox/card-setups/${id}`, bea, { card: 'declined' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(topUpMessages.setupUsed);
    expect((await settings(bea)).json<TopUp>().card?.label).toBe('Sandbox test card •••• 4242');
    const page = (await call('GET', `/api/sandbox/card-setups/${id}`, bea)).json();
    expect(page).toMatchObject({
      used: true,
      returnUrl: `${testBrand.appUrl}/dashboard/proxies?tab=residential_proxies&card=saved`,
    });
  });

  it('lets an API key read the settings but not change them or open a card page', async () => {
    const dee = await signUpCustomer(t, 'dee@example.com');
    const key = (await call('POST', '/api/api-keys', dee, { name: 'reader' })).json<CreatedApiKey>().key;
    expect((await callApi(t, 'GET', '/api/residential/top-up', { key })).statusCode).toBe(200);
    for (const [method, url] of [
      ['PUT', '/api/residential/top-up'],
      ['POST', '/api/residential/top-up/card'],
      ['DELETE', '/api/residential/top-up/card'],
    ] as const) {
      const answer = await callApi(t, method, url, { key, payload: { enabled: false } });
      expect(answer.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('tops up under the threshold: data added, receipt, Order History, history; within the caps', async () => {
    const eve = await signUpCustomer(t, 'eve@example.com');
    await account(eve.id, 10, 9);
    await saveCard(eve, 'ok');
    const saved = await save(eve, { thresholdGb: 2, amountGb: 5, maxPerDay: 2 });
    expect(saved.statusCode, saved.body).toBe(200);
    const price = saved.json<TopUp>().unitPriceCents * 5;
    expect(
      (await save(eve, { thresholdGb: 2, amountGb: 5, maxPerDay: 2, monthlyCapDollars: (price * 3) / 100 })).statusCode,
    ).toBe(200);

    const start = new Date(Date.now() + HOUR);
    const report = await runAt(start);
    expect(report.toppedUp).toBe(1);
    expect(await totalKbOf(eve.id)).toBe(15 * KB_PER_GB);
    const after = (await settings(eve)).json<TopUp>();
    expect(after.history).toHaveLength(1);
    expect(after.history[0]).toMatchObject({ status: 'paid', amountGb: 5, amountCents: price, message: null });
    const [order] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, after.history[0]?.orderId ?? ''));
    expect(order).toMatchObject({
      status: 'delivered',
      quantity: 5,
      totalCents: price,
      productId: 'residential_proxies',
    });
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, order?.id ?? ''));
    expect(payment?.amountCents).toBe(price);
    const history = (await call('GET', '/api/orders/history', eve)).json<{ id: string }[] | { entries: unknown[] }>();
    expect(JSON.stringify(history)).toContain(order?.id ?? 'none');
    const mails = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, 'eve@example.com'));
    expect(mails.map((mail) => mail.subject)).toContain(
      `Receipt: ${payment ? `$${(price / 100).toFixed(2)}` : ''} for Residential Proxies`,
    );

    // The console's sales figures count it (this calendar month's, by the database's clock).
    if (start.getUTCMonth() === new Date().getUTCMonth()) {
      const stock = (await call('GET', '/api/admin/stocks/residential', boss)).json<ResidentialStock>();
      expect(stock.topUpsThisMonth.paid).toBeGreaterThanOrEqual(1);
      expect(stock.topUpsThisMonth.paidCents).toBeGreaterThanOrEqual(price);
    }

    // Over the threshold now: nothing more, however often the job runs.
    expect((await runAt(new Date(start.getTime() + 60_000))).toppedUp).toBe(0);
    // Under it again: the second of the day; a third waits for the day to turn (maxPerDay 2).
    await account(eve.id, 15, 14);
    expect((await runAt(new Date(start.getTime() + 2 * 60_000))).toppedUp).toBe(1);
    await account(eve.id, 20, 19);
    expect((await runAt(new Date(start.getTime() + 3 * 60_000))).toppedUp).toBe(0);
    const capped = (await settings(eve)).json<TopUp>();
    expect(capped.waiting).toBe(topUpMessages.dailyLimitReached(2));
    // A day later the daily limit allows it, but the monthly cap (three top-ups) is what is left: the third is the last.
    const nextDay = new Date(start.getTime() + 25 * HOUR);
    const sameMonth = nextDay.getUTCMonth() === start.getUTCMonth();
    expect((await runAt(nextDay)).toppedUp).toBe(1);
    if (sameMonth) {
      await account(eve.id, 25, 24);
      expect((await runAt(new Date(nextDay.getTime() + 60_000))).toppedUp).toBe(0);
      expect((await settings(eve)).json<TopUp>().waiting).toBe(topUpMessages.monthlyCapReached);
    }
  });

  it('after 3 declined payments in a row switches itself off, with an e-mail each time; an hour between tries', async () => {
    const fay = await signUpCustomer(t, 'fay@example.com');
    await account(fay.id, 10, 10);
    await saveCard(fay, 'declined');
    expect((await save(fay, {})).statusCode).toBe(200);
    const start = new Date(Date.now() + 30 * HOUR);
    expect((await runAt(start)).topUpsFailed).toBe(1);
    expect(await totalKbOf(fay.id)).toBe(10 * KB_PER_GB);
    expect((await runAt(new Date(start.getTime() + 10 * 60_000))).topUpsFailed).toBe(0);
    const waiting = (await settings(fay)).json<TopUp>();
    expect(waiting.waiting).toMatch(/^Waiting: the last payment failed; the next try is at .+ UTC\.$/);
    expect(waiting.failuresInARow).toBe(1);
    expect((await runAt(new Date(start.getTime() + 61 * 60_000))).topUpsFailed).toBe(1);
    expect((await runAt(new Date(start.getTime() + 122 * 60_000))).topUpsFailed).toBe(1);
    const off = (await settings(fay)).json<TopUp>();
    expect(off).toMatchObject({ enabled: false, failuresInARow: 3 });
    expect(off.switchedOffAt).not.toBeNull();
    expect(off.history.map((entry) => [entry.status, entry.message])).toEqual([
      ['failed', topUpMessages.declined],
      ['failed', topUpMessages.declined],
      ['failed', topUpMessages.declined],
    ]);
    expect((await runAt(new Date(start.getTime() + 200 * 60_000))).topUpsFailed).toBe(0);
    const subjects = (
      await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, 'fay@example.com'))
    ).map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject === 'Automatic top-up of 5 GB did not go through')).toHaveLength(2);
    expect(subjects).toContain('Automatic top-up is switched off');
    const failedOrders = await t.database.db.select().from(orders).where(eq(orders.userId, fay.id));
    expect(failedOrders.every((order) => order.status === 'awaiting_payment')).toBe(true);
    expect(await t.database.db.select().from(payments).where(eq(payments.userId, fay.id))).toEqual([]);

    // Turned on again, the count starts afresh.
    const again = await save(fay, { amountGb: 10 });
    expect(again.json<TopUp>()).toMatchObject({ enabled: true, failuresInARow: 0, switchedOffAt: null });
  });

  it('starts one top-up however many runners see the threshold at once, and finishes one a stopped run left', async () => {
    const gus = await signUpCustomer(t, 'gus@example.com');
    await account(gus.id, 4, 4);
    await saveCard(gus, 'ok');
    expect((await save(gus, { amountGb: 3 })).statusCode).toBe(200);
    const ctx = {
      db: t.database.db,
      brand: testBrand,
      log: silent,
      provider: provider(),
      currency: 'usd',
      batchSize: 100,
    };
    const at = new Date(Date.now() + 40 * HOUR);
    // Others' top-ups may be due at this time too (a month turned): only his are counted.
    await Promise.all(Array.from({ length: 8 }, () => runTopUps(ctx, at)));
    expect(await totalKbOf(gus.id)).toBe(7 * KB_PER_GB);
    expect(await t.database.db.select().from(topUps).where(eq(topUps.userId, gus.id))).toHaveLength(1);

    // A run stopped between its charge and the record: the top-up is charging past its lease; the next run ends it.
    const [left] = await t.database.db.select().from(topUps).where(eq(topUps.userId, gus.id));
    expect(left?.status).toBe('paid');
    /** A top-up and its order as a run leaves them when it stops after deciding: charging, its lease run out. */
    const leaveCharging = async (createdAt = new Date()) => {
      const [order] = await t.database.db
        .insert(orders)
        .values({
          userId: gus.id,
          productId: 'residential_proxies',
          quantity: 3,
          totalCents: 1500,
          provider: 'sandbox',
        })
        .returning();
      const [topUp] = await t.database.db
        .insert(topUps)
        .values({
          userId: gus.id,
          orderId: order?.id,
          amountGb: 3,
          amountCents: 1500,
          currency: 'usd',
          status: 'charging',
          provider: 'sandbox',
          paymentMethodId: 'pm_sandbox_ok',
          claimedUntil: new Date(Date.now() - 1000),
          startedAt: at,
          createdAt,
        })
        .returning();
      return topUp?.id ?? '';
    };
    // Asked again with the card it was decided with, even though the customer removed that card since.
    const stopped = await leaveCharging();
    expect((await call('DELETE', '/api/residential/top-up/card', gus)).statusCode).toBe(200);
    await runTopUps(ctx, new Date(at.getTime() + 60_000));
    const [resumed] = await t.database.db.select().from(topUps).where(eq(topUps.id, stopped));
    expect(resumed?.status).toBe('paid');
    expect(await totalKbOf(gus.id)).toBe(10 * KB_PER_GB);
    // Asked twice, the sandbox answers the same invoice (as Stripe the same intent): one payment in Order History.
    const again = await provider().chargeSavedCard({
      topUpId: stopped,
      orderId: resumed?.orderId ?? '',
      userId: gus.id,
      providerCustomerId: null,
      paymentMethodId: 'pm_sandbox_ok',
      amountCents: 1500,
      currency: 'usd',
      description: 'again',
    });
    expect(again.status === 'paid' && again.invoice.id).toBe(resumed?.providerChargeId);

    // One never answered for longer than the provider keeps a key cannot be asked again: failed, in words that do not
    // claim nothing was charged, and nothing added.
    const lost = await leaveCharging(new Date(Date.now() - 24 * HOUR));
    await runTopUps(ctx, new Date(at.getTime() + 120_000));
    const [unconfirmed] = await t.database.db.select().from(topUps).where(eq(topUps.id, lost));
    expect(unconfirmed).toMatchObject({ status: 'failed', message: topUpMessages.unconfirmed });
    expect(await totalKbOf(gus.id)).toBe(10 * KB_PER_GB);
  });

  it('buys no more while a paid top-up waits for stock, and says so', async () => {
    const ivy = await signUpCustomer(t, 'ivy@example.com');
    await account(ivy.id, 3, 3);
    await saveCard(ivy, 'ok');
    expect((await save(ivy, { amountGb: 2 })).statusCode).toBe(200);
    // The residential pool is sold out: a paid order waits as processing.
    const [pool] = await t.database.db.select().from(residentialPool);
    await t.database.db.update(residentialPool).set({ bandwidthLimitMb: pool?.bandwidthUsedMb ?? 0 });
    try {
      const start = new Date(Date.now() + 50 * HOUR);
      await runAt(start);
      await runAt(new Date(start.getTime() + 10 * 60_000));
      const rows = await t.database.db.select().from(topUps).where(eq(topUps.userId, ivy.id));
      expect(rows.map((row) => row.status)).toEqual(['paid']);
      const [order] = await t.database.db
        .select()
        .from(orders)
        .where(eq(orders.id, rows[0]?.orderId ?? ''));
      expect(order?.status).toBe('processing');
      expect((await settings(ivy)).json<TopUp>().waiting).toBe(topUpMessages.waitingForStock);
    } finally {
      await t.database.db.update(residentialPool).set({ bandwidthLimitMb: pool?.bandwidthLimitMb ?? 0 });
    }
  });

  it('forgets the card and turns off when the customer removes it', async () => {
    const hal = await signUpCustomer(t, 'hal@example.com');
    await saveCard(hal, 'ok');
    expect((await save(hal, {})).statusCode).toBe(200);
    const removed = await call('DELETE', '/api/residential/top-up/card', hal);
    expect(removed.statusCode).toBe(200);
    expect(removed.json<TopUp>()).toMatchObject({ enabled: false, card: null });
    const [row] = await t.database.db.select().from(topUpSettings).where(eq(topUpSettings.userId, hal.id));
    expect(row?.paymentMethodId).toBeNull();
  });
});
