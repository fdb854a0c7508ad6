import { KB_PER_GB, type TopUp, topUpMessages } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardSetups, orders, residentialAccounts, topUpSettings, topUps } from '../../db/schema.ts';
import { type FakeStripe, startFakeStripe } from '../../test/fake-stripe.ts';
import { callApi, createTestApp, type Method, signUpCustomer, type TestApp } from '../../test/test-app.ts';

const WEBHOOK_SECRET = 'whsec_test_secret';

describe('automatic top-up through Stripe (a local stand-in for its API)', () => {
  let fake: FakeStripe;
  let t: TestApp;
  let ann: { cookie: string; id: string };
  const call = (method: Method, url: string, payload?: unknown) =>
    callApi(t, method, url, { cookie: ann.cookie, ...(payload !== undefined && { payload }) });
  const deliver = (event: object) => {
    const payload = JSON.stringify({ object: 'event', created: 1_795_300_000, ...event });
    return t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      payload,
    });
  };
  const totalKb = async () =>
    (await t.database.db.select().from(residentialAccounts).where(eq(residentialAccounts.userId, ann.id)))[0]?.totalKb;
  const setUsage = (totalGb: number, usedGb: number) =>
    t.database.db
      .update(residentialAccounts)
      .set({ totalKb: totalGb * KB_PER_GB, usedKb: usedGb * KB_PER_GB })
      .where(eq(residentialAccounts.userId, ann.id));
  const usePaymentMethod = (paymentMethodId: string) =>
    t.database.db
      .update(topUpSettings)
      .set({ paymentMethodId, retryAfter: null })
      .where(eq(topUpSettings.userId, ann.id));
  /** Top-up on: under 2 GB left, buy 4 GB. */
  const turnOn = async () => {
    const on = await call('PUT', '/api/residential/top-up', {
      enabled: true,
      thresholdGb: 2,
      amountGb: 4,
      monthlyCapDollars: 500,
      maxPerDay: 3,
    });
    expect(on.statusCode, on.body).toBe(200);
  };
  let clock = Date.now();
  // A day apart: each run is past the hour after a failure and the day's limit of top-ups.
  const runJob = () => {
    clock += 25 * 3_600_000;
    return t.app.jobs.runOnce(new Date(clock));
  };

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_IP: '1000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000',
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    });
    ann = await signUpCustomer(t, 'ann@example.com');
    await t.database.db
      .insert(residentialAccounts)
      .values({ userId: ann.id, username: 'annres', password: 'secretpass', totalKb: 0, usedKb: 0 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('saves a card through a setup-mode Checkout Session for a customer at Stripe; the card never reaches the shop', async () => {
    const opened = await call('POST', '/api/residential/top-up/card');
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<{ url: string }>().url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const [customer] = fake.find('POST /v1/customers');
    expect(customer?.idempotencyKey).toBe(`customer-${ann.id}`);
    expect(customer?.params).toMatchObject({ email: 'ann@example.com', 'metadata[userId]': ann.id });
    const [session] = fake.find('POST /v1/checkout/sessions');
    expect(session?.params).toMatchObject({
      mode: 'setup',
      currency: 'usd',
      'metadata[purpose]': 'top_up_card',
      'setup_intent_data[metadata][userId]': ann.id,
      success_url: 'http://localhost:3000/dashboard/proxies?tab=residential_proxies&card=saved',
    });
    const [setup] = await t.database.db.select().from(cardSetups).where(eq(cardSetups.userId, ann.id));
    const completed = {
      id: 'evt_setup_1',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: setup?.id,
          object: 'checkout.session',
          mode: 'setup',
          status: 'complete',
          setup_intent: 'seti_123',
          customer: session?.params.customer,
          metadata: { userId: ann.id, purpose: 'top_up_card' },
        },
      },
    };
    expect((await deliver(completed)).statusCode).toBe(200);
    const read = (await call('GET', '/api/residential/top-up')).json<TopUp>();
    expect(read.card?.label).toBe('Visa •••• 4242');
    // The same session's event again, or one naming a page another customer opened, saves nothing.
    expect((await deliver({ ...completed, id: 'evt_setup_2' })).statusCode).toBe(200);
    const forged = { ...completed, id: 'evt_setup_3' };
    forged.data.object = { ...completed.data.object, id: 'cs_test_not_ours' };
    expect((await deliver(forged)).statusCode).toBe(200);
    const [settings] = await t.database.db.select().from(topUpSettings).where(eq(topUpSettings.userId, ann.id));
    expect(settings?.paymentMethodId).toBe('pm_card_visa');
    // A session Ann opened whose metadata names another customer gives that customer nothing.
    const bob = await signUpCustomer(t, 'bob@example.com');
    const hers =
      (await call('POST', '/api/residential/top-up/card')).json<{ url: string }>().url.split('/').pop() ?? '';
    const [anns] = await t.database.db.select().from(cardSetups).where(eq(cardSetups.id, hers));
    expect(anns?.userId).toBe(ann.id);
    const misdirected = { ...completed, id: 'evt_setup_4' };
    misdirected.data.object = {
      ...completed.data.object,
      id: hers,
      metadata: { userId: bob.id, purpose: 'top_up_card' },
    };
    expect((await deliver(misdirected)).statusCode).toBe(200);
    expect(await t.database.db.select().from(topUpSettings).where(eq(topUpSettings.userId, bob.id))).toEqual([]);
  });

  it('charges the saved card off-session under the threshold, once, whichever of the answer and the event comes first', async () => {
    await turnOn();
    await setUsage(3, 2);
    const report = await runJob();
    expect(report.toppedUp).toBe(1);
    const [intent] = fake.find('POST /v1/payment_intents');
    const [topUp] = await t.database.db.select().from(topUps).where(eq(topUps.userId, ann.id));
    expect(intent?.idempotencyKey).toBe(`top-up-${topUp?.id}`);
    expect(intent?.params).toMatchObject({
      off_session: 'true',
      confirm: 'true',
      payment_method: 'pm_card_visa',
      currency: 'usd',
      amount: String(topUp?.amountCents),
      'metadata[topUpId]': topUp?.id,
    });
    expect(await totalKb()).toBe(7 * KB_PER_GB);
    // Stripe's own event of the same payment: recorded, nothing added twice.
    const succeeded = await deliver({
      id: 'evt_pi_1',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: 'pi_test_000001',
          object: 'payment_intent',
          status: 'succeeded',
          amount: topUp?.amountCents,
          amount_received: topUp?.amountCents,
          currency: 'usd',
          created: 1_795_300_000,
          metadata: { topUpId: topUp?.id },
        },
      },
    });
    expect(succeeded.statusCode).toBe(200);
    expect(await totalKb()).toBe(7 * KB_PER_GB);

    // The event first (the charge's answer lost): a top-up still charging is settled by the event alone.
    const [order] = await t.database.db
      .insert(orders)
      .values({ userId: ann.id, productId: 'residential_proxies', quantity: 1, totalCents: 500, provider: 'stripe' })
      .returning();
    const [charging] = await t.database.db
      .insert(topUps)
      .values({
        userId: ann.id,
        orderId: order?.id,
        amountGb: 1,
        amountCents: 500,
        currency: 'usd',
        status: 'charging',
        provider: 'stripe',
        paymentMethodId: 'pm_card_visa',
        claimedUntil: new Date(Date.now() + 60_000),
        startedAt: new Date(clock),
      })
      .returning();
    const early = await deliver({
      id: 'evt_pi_2',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: 'pi_early',
          object: 'payment_intent',
          status: 'succeeded',
          amount: 500,
          amount_received: 500,
          currency: 'usd',
          created: 1_795_300_000,
          metadata: { topUpId: charging?.id },
        },
      },
    });
    expect(early.statusCode).toBe(200);
    expect(await totalKb()).toBe(8 * KB_PER_GB);
  });

  it('records a declined card and one that needs 3-D Secure (either way Stripe says it) in words, adding nothing', async () => {
    await usePaymentMethod('pm_card_chargeDeclined');
    await setUsage(8, 8);
    expect((await runJob()).topUpsFailed).toBe(1);
    await usePaymentMethod('pm_card_authenticationRequired');
    expect((await runJob()).topUpsFailed).toBe(1);
    await usePaymentMethod('pm_card_declinedAuthentication');
    expect((await runJob()).topUpsFailed).toBe(1);
    expect(await totalKb()).toBe(8 * KB_PER_GB);
    const read = (await call('GET', '/api/residential/top-up')).json<TopUp>();
    expect(read.history.slice(0, 3).map((entry) => [entry.status, entry.message])).toEqual([
      ['needs_action', topUpMessages.needsAction],
      ['needs_action', topUpMessages.needsAction],
      ['failed', 'The card was declined (insufficient funds).'],
    ]);
    // The failure's own event, arriving after: the same words, nothing changed.
    const [declined] = await t.database.db
      .select()
      .from(topUps)
      .where(eq(topUps.paymentMethodId, 'pm_card_chargeDeclined'));
    const again = await deliver({
      id: 'evt_pi_failed',
      type: 'payment_intent.payment_failed',
      data: {
        object: {
          id: declined?.providerChargeId,
          object: 'payment_intent',
          status: 'requires_payment_method',
          amount: 2000,
          currency: 'usd',
          created: 1_795_300_000,
          metadata: { topUpId: declined?.id },
          last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
        },
      },
    });
    expect(again.statusCode).toBe(200);
    expect(declined?.providerChargeId).toMatch(/^pi_test_/);
    // Three in a row: switched off.
    expect((await call('GET', '/api/residential/top-up')).json<TopUp>().switchedOffAt).not.toBeNull();
  });

  it('reads a charge still processing again by its id, never making a second one', async () => {
    await turnOn();
    await usePaymentMethod('pm_card_processing');
    await t.database.db.update(topUpSettings).set({ failuresInARow: 0 }).where(eq(topUpSettings.userId, ann.id));
    const before = fake.find('POST /v1/payment_intents').length;
    await runJob();
    const [charging] = await t.database.db
      .select()
      .from(topUps)
      .where(eq(topUps.paymentMethodId, 'pm_card_processing'));
    expect(charging).toMatchObject({ status: 'charging' });
    expect(charging?.providerChargeId).toMatch(/^pi_test_/);
    // The bank finishes; the lease has run out; the next run reads the intent by its id.
    const intent = fake.objects.get(charging?.providerChargeId ?? '');
    if (intent) Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
    await t.database.db
      .update(topUps)
      .set({ claimedUntil: new Date(Date.now() - 1000) })
      .where(eq(topUps.id, charging?.id ?? ''));
    await runJob();
    expect(fake.find('POST /v1/payment_intents').length).toBe(before + 1);
    expect(fake.find(`GET /v1/payment_intents/${charging?.providerChargeId}`)).toHaveLength(1);
    const [paid] = await t.database.db
      .select()
      .from(topUps)
      .where(eq(topUps.id, charging?.id ?? ''));
    expect(paid?.status).toBe('paid');
    expect(await totalKb()).toBe(12 * KB_PER_GB);
  });

  it('detaches the card at Stripe when the customer removes it', async () => {
    const [saved] = await t.database.db.select().from(topUpSettings).where(eq(topUpSettings.userId, ann.id));
    const removed = await call('DELETE', '/api/residential/top-up/card');
    expect(removed.statusCode).toBe(200);
    expect(fake.find(`POST /v1/payment_methods/${saved?.paymentMethodId}/detach`)).toHaveLength(1);
    expect(removed.json<TopUp>()).toMatchObject({ enabled: false, card: null });
  });
});
