import { setTimeout as sleep } from 'node:timers/promises';
import { shortId } from '@storefront/contract';
import { eq, isNotNull, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponRedemptions, orders, payments, proxyIps, webhookEvents } from '../db/schema.ts';
import { sandboxWebhookSecret } from '../payments/sandbox-provider.ts';
import { type FakeStripe, startFakeStripe } from '../test/fake-stripe.ts';
import { sandboxPaidPayload } from '../test/payments.ts';
import { recordProof } from '../test/proof-results.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../test/test-app.ts';

const WEBHOOK_SECRET = 'whsec_chaos';
const PERIOD_END = 1_797_900_000;

/** One webhook as the provider would send it: its path, body and signing secret. */
interface Delivery {
  path: string;
  header: string;
  secret: string;
  payload: string;
}

/** The orders of the scenario, by label: who buys what, and how. */
const SCENARIO = [
  { label: 'ann-isp-coupon', customer: 'ann', productId: 'isp_proxies', quantity: 5, coupon: 'CHAOS10' },
  { label: 'bob-isp-ended', customer: 'bob', productId: 'isp_proxies', quantity: 3 },
  { label: 'ann-residential', customer: 'ann', productId: 'residential_proxies', quantity: 1 },
  { label: 'bob-pk1', customer: 'bob', productId: 'pk1_isp_proxies', quantity: 5 },
  { label: 'bob-unpaid', customer: 'bob', productId: 'isp_proxies', quantity: 2 },
] as const;

type Label = (typeof SCENARIO)[number]['label'];

/** Every Stripe event type the shop handles (and two it ignores), for the scenario's orders. */
function stripeEvents(ids: Record<Label, string>): string[] {
  const event = (id: string, type: string, object: object, created = 1_795_300_000) =>
    JSON.stringify({ id, object: 'event', type, created, data: { object } });
  const session = (label: Label, id: string, type = 'checkout.session.completed') =>
    event(id, type, {
      id: `cs_${label}`,
      object: 'checkout.session',
      payment_status: 'paid',
      client_reference_id: ids[label],
      metadata: { orderId: ids[label] },
      invoice: `in_first_${label}`,
      subscription: label === 'ann-residential' ? null : `sub_${label}`,
      customer: 'cus_chaos',
      customer_details: { email: `${label.split('-')[0]}@example.com` },
    });
  const invoice = (label: Label, id: string, type: string, invoiceId: string, reason = 'subscription_cycle') =>
    event(
      id,
      type,
      {
        id: invoiceId,
        object: 'invoice',
        billing_reason: reason,
        hosted_invoice_url: `https://invoice.stripe.test/i/${invoiceId}`,
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: `sub_${label}`, metadata: { orderId: ids[label] } },
        },
      },
      PERIOD_END,
    );
  const subscription = (label: Label, id: string, type: string, fields: object) =>
    event(
      id,
      type,
      {
        id: `sub_${label}`,
        object: 'subscription',
        metadata: { orderId: ids[label] },
        status: 'active',
        cancel_at_period_end: false,
        items: { data: [] },
        ...fields,
      },
      PERIOD_END + 100,
    );
  return [
    session('ann-isp-coupon', 'evt_paid_ann_isp'),
    invoice('ann-isp-coupon', 'evt_first_invoice', 'invoice.paid', 'in_first_ann', 'subscription_create'),
    // The renewal's invoice fails, then the retried charge of the same invoice succeeds.
    invoice('ann-isp-coupon', 'evt_renewal_failed', 'invoice.payment_failed', 'in_renewal_ann'),
    invoice('ann-isp-coupon', 'evt_renewal_paid', 'invoice.paid', 'in_renewal_ann'),
    subscription('ann-isp-coupon', 'evt_cancel_at_end', 'customer.subscription.updated', {
      cancel_at_period_end: true,
    }),
    session('bob-isp-ended', 'evt_paid_bob_isp'),
    session('bob-isp-ended', 'evt_paid_bob_isp_async', 'checkout.session.async_payment_succeeded'),
    subscription('bob-isp-ended', 'evt_ended', 'customer.subscription.deleted', {
      status: 'canceled',
      ended_at: PERIOD_END + 100,
    }),
    session('ann-residential', 'evt_paid_residential'),
    session('bob-pk1', 'evt_paid_pk1'),
    event('evt_unknown_type', 'customer.created', { id: 'cus_chaos', object: 'customer' }),
  ];
}

/** The sandbox's event for a paid checkout (its only type) and one it does not know. */
function sandboxEvents(ids: Record<Label, string>): string[] {
  return [
    ...SCENARIO.filter((order) => order.label !== 'bob-unpaid').map((order) =>
      sandboxPaidPayload({
        eventId: `evt_sandbox_${order.label}`,
        orderId: ids[order.label],
        customerEmail: `${order.customer}@example.com`,
        invoiceId: `in_sandbox_${order.label}`,
        periodEnd: order.productId === 'residential_proxies' ? null : '2026-12-23T00:00:00.000Z',
      }),
    ),
    JSON.stringify({
      id: 'evt_sandbox_other',
      type: 'sandbox.something.else',
      created: Math.floor(Date.now() / 1000),
      data: {},
    }),
  ];
}

/** A fresh shop with the scenario's orders placed, and the webhooks its provider will send for them. */
async function placeScenario(provider: 'stripe' | 'sandbox', stripeUrl: string) {
  const t = await createTestApp({
    AUTH_RATE_LIMIT_PER_IP: '10000',
    CHECKOUT_RATE_LIMIT_PER_USER: '10000',
    ADMIN_EMAILS: 'boss@example.com',
    AUTH_SECRET: 'chaos-secret-at-least-thirty-two-characters',
    ...(provider === 'stripe' && {
      STRIPE_SECRET_KEY: 'sk_test_chaos',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripeUrl,
    }),
  });
  const people = {
    ann: await signUpCustomer(t, 'ann@example.com'),
    bob: await signUpCustomer(t, 'bob@example.com'),
    boss: await signUpCustomer(t, 'boss@example.com'),
  };
  const coupon = await callApi(t, 'POST', '/api/admin/coupons', {
    cookie: people.boss.cookie,
    payload: {
      code: 'CHAOS10',
      name: 'Chaos ten',
      duration: 'forever',
      discountType: 'percent_off',
      percentOff: 10,
      appliesToProducts: ['isp_proxies'],
    },
  });
  expect(coupon.statusCode).toBeLessThan(300);
  const ids = {} as Record<Label, string>;
  for (const order of SCENARIO) {
    const answer = await callApi(t, 'POST', '/api/checkout', {
      cookie: people[order.customer].cookie,
      payload: {
        productId: order.productId,
        quantity: order.quantity,
        ...('coupon' in order && { coupon: order.coupon }),
      },
    });
    expect(answer.json(), order.label).toMatchObject({ success: true });
    const [placed] = await t.database.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.userId, people[order.customer].id))
      .orderBy(sql`${orders.createdAt} desc`)
      .limit(1);
    ids[order.label] = placed?.id ?? '';
  }
  const deliveries: Delivery[] =
    provider === 'stripe'
      ? stripeEvents(ids).map((payload) => ({
          path: '/api/webhooks/stripe',
          header: 'stripe-signature',
          secret: WEBHOOK_SECRET,
          payload,
        }))
      : sandboxEvents(ids).map((payload) => ({
          path: '/api/webhooks/sandbox',
          header: 'sandbox-signature',
          secret: sandboxWebhookSecret(t.config.auth.secret ?? ''),
          payload,
        }));
  return { t, ids, deliveries };
}

/** One delivery; false when the shop asked for it again later (503), as it does for an event ahead of its payment. */
async function deliver(t: TestApp, delivery: Delivery): Promise<boolean> {
  const answer = await t.app.inject({
    method: 'POST',
    url: delivery.path,
    headers: {
      'content-type': 'application/json',
      [delivery.header]: Stripe.webhooks.generateTestHeaderString({
        payload: delivery.payload,
        secret: delivery.secret,
      }),
    },
    payload: delivery.payload,
  });
  // A provider sends again whatever is not a 2xx, later.
  if (answer.statusCode === 503) return false;
  expect(answer.statusCode, answer.body).toBe(200);
  return true;
}

/** The shop's state by scenario label: ids, which differ between shops, are replaced by labels. */
async function stateOf(t: TestApp, ids: Record<Label, string>) {
  const db = t.database.db;
  await t.mailsSettled();
  // Ids, and the short order numbers e-mails show (#1A2B3C4D), become the scenario's labels.
  const label = (text: string) =>
    Object.entries(ids).reduce(
      (result, [name, id]) => result.replaceAll(id, name).replaceAll(`#${shortId(id, 8)}`, `#${name}`),
      text,
    );
  const byOrder: Record<string, unknown> = {};
  for (const order of SCENARIO) {
    const [row] = await db.select().from(orders).where(eq(orders.id, ids[order.label]));
    const paid = await db.select().from(payments).where(eq(payments.orderId, ids[order.label]));
    const ips = await db.select().from(proxyIps).where(eq(proxyIps.assignedOrderId, ids[order.label]));
    byOrder[order.label] = {
      status: row?.status,
      cancelled: row?.cancelled,
      paymentFailed: row?.paymentFailed,
      inGrace: row?.graceEndsAt !== null,
      expiresInDays:
        row?.expiresAt && row.purchasedAt
          ? Math.round((row.expiresAt.getTime() - row.purchasedAt.getTime()) / 86_400_000)
          : null,
      ips: ips.length,
      payments: paid.map((p) => `${p.kind}:${label(p.invoiceId ?? '')}:${p.amountCents}`).sort(),
    };
  }
  const held = await db
    .select({ ip: proxyIps.endpoint, n: sql<number>`count(*)::int` })
    .from(proxyIps)
    .where(isNotNull(proxyIps.assignedOrderId))
    .groupBy(proxyIps.endpoint)
    .having(sql`count(*) > 1`);
  const mails: Record<string, number> = {};
  for (const mail of t.mails) {
    if (/Confirm your e-mail/.test(mail.subject)) continue;
    const key = `${mail.to} | ${label(mail.subject)}`;
    mails[key] = (mails[key] ?? 0) + 1;
  }
  return {
    orders: byOrder,
    redemptions: (await db.select().from(couponRedemptions)).length,
    eventsRecorded: (await db.select().from(webhookEvents)).length,
    ipsHeldTwice: held.length,
    mails,
  };
}

/** A seeded shuffle, so a failure can be replayed (the seed is printed). */
function shuffled<T>(items: T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

describe.each(['stripe', 'sandbox'] as const)('webhook chaos through the %s provider', (provider) => {
  // Two shops, so two Stripe accounts: a code is unique among an account's active promotion codes.
  let fake: FakeStripe;
  let chaosFake: FakeStripe;
  beforeAll(async () => {
    [fake, chaosFake] = await Promise.all([startFakeStripe(), startFakeStripe()]);
  });
  afterAll(async () => {
    await Promise.all([fake.close(), chaosFake.close()]);
  });

  it('repeated, shuffled and delayed events, with a restart in the middle, end as one orderly delivery does', async () => {
    const orderly = await placeScenario(provider, fake.url);
    for (const delivery of orderly.deliveries) await deliver(orderly.t, delivery);
    const expected = await stateOf(orderly.t, orderly.ids);
    await orderly.t.close();

    const seed = Number(process.env.PROOF_CHAOS_SEED ?? Date.now() % 1_000_000);
    const chaos = await placeScenario(provider, chaosFake.url);
    // Each event 1 to 4 times, all shuffled, sent in parallel waves with random delays; the server restarts midway.
    const storm = shuffled(
      chaos.deliveries.flatMap((delivery, index) => Array.from({ length: 1 + ((index + seed) % 4) }, () => delivery)),
      seed,
    );
    const half = Math.floor(storm.length / 2);
    const later: Delivery[] = [];
    const wave = (part: Delivery[]) =>
      Promise.all(
        part.map(async (delivery, index) => {
          // The storm's spread in time (0 to 24 ms, from the seed) is part of the scenario, not a wait for anything.
          await sleep((index * 7 + seed) % 25);
          if (!(await deliver(chaos.t, delivery))) later.push(delivery);
        }),
      );
    await wave(storm.slice(0, half));
    await chaos.t.restart();
    await wave(storm.slice(half));
    // The provider's retries of what the shop asked to have again, until every event is taken.
    let retries = 0;
    for (let round = 0; later.length > 0 && round < 10; round++) {
      const again = later.splice(0);
      retries += again.length;
      await wave(again);
    }
    expect(later, 'events never taken').toEqual([]);
    const actual = await stateOf(chaos.t, chaos.ids);
    await chaos.t.close();

    recordProof(`webhook chaos (${provider})`, {
      events: chaos.deliveries.length,
      deliveries: storm.length,
      retries,
      seed,
      ipsHeldTwice: actual.ipsHeldTwice,
      mails: Object.values(actual.mails).reduce((sum, n) => sum + n, 0),
    });
    // A failure reported after its invoice was paid is old news and mails nothing; in the orderly run the customer was
    // told of it before the payment. Every other e-mail, and everything else, is the same.
    const withoutFailureMail = (state: typeof actual) => ({
      ...state,
      mails: Object.fromEntries(Object.entries(state.mails).filter(([key]) => !key.includes('Payment failed'))),
    });
    expect(withoutFailureMail(actual), `seed ${seed}`).toEqual(withoutFailureMail(expected));
    expect(actual.ipsHeldTwice).toBe(0);
    expect(
      Object.values(actual.mails).every((n) => n === 1),
      JSON.stringify(actual.mails),
    ).toBe(true);
  }, 120_000);
});
