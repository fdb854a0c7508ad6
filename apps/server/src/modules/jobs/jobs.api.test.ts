import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, orders, payments } from '../../db/schema.ts';
import { testBrand } from '../../test/payments.ts';
import { createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { runJobs } from './run-jobs.ts';

describe('the periodic job with several runners', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => t.close());

  it('two runners started at once over the same due orders do each renewal once', async () => {
    const db = t.database.db;
    const customer = await signUpCustomer(t, 'many@example.com');
    const due = new Date(Date.now() - 3_600_000);
    const created = await db
      .insert(orders)
      .values(
        Array.from({ length: 20 }, () => ({
          userId: customer.id,
          productId: 'isp_proxies' as const,
          quantity: 1,
          unitPriceCents: 250,
          totalCents: 250,
          status: 'delivered' as const,
          provider: 'sandbox' as const,
          sandboxCard: 'ok' as const,
          purchasedAt: new Date(due.getTime() - 30 * 86_400_000),
          expiresAt: due,
        })),
      )
      .returning({ id: orders.id });
    const sent: string[] = [];
    const runner = () => ({
      db,
      brand: testBrand,
      mailer: {
        delivers: true,
        async send(mail: { subject: string }) {
          sent.push(mail.subject);
        },
      },
      log: t.app.log,
      provider: 'sandbox' as const,
    });
    const now = new Date();
    const [a, b] = await Promise.all([runJobs(runner(), now), runJobs(runner(), now)]);
    expect((a?.renewed ?? 0) + (b?.renewed ?? 0)).toBe(20);
    for (const order of created) {
      expect(await db.select().from(payments).where(eq(payments.orderId, order.id))).toHaveLength(1);
    }
    // The customers' own confirmation e-mails are in the outbox too: only the renewals' receipts count here.
    const receipts = await db.select().from(emailOutbox).where(like(emailOutbox.dedupeKey, 'receipt:%'));
    expect(receipts).toHaveLength(20);
    expect(sent).toHaveLength(20);
    expect(receipts.every((row) => row.sentAt !== null)).toBe(true);

    const [again] = await Promise.all([runJobs(runner(), now), runJobs(runner(), now)]);
    expect(again?.renewed).toBe(0);
    expect(sent).toHaveLength(20);
  });

  /** A sandbox job context whose e-mails go nowhere. */
  const quietRunner = () => ({
    db: t.database.db,
    brand: testBrand,
    mailer: { delivers: true, async send() {} },
    log: t.app.log,
    provider: 'sandbox' as const,
  });

  it('a stop during a run ends it between two units of work, each finished whole', async () => {
    const db = t.database.db;
    const customer = await signUpCustomer(t, 'stopped@example.com');
    const due = new Date(Date.now() - 3_600_000);
    await db.insert(orders).values(
      Array.from({ length: 10 }, () => ({
        userId: customer.id,
        productId: 'pk1_isp_proxies' as const,
        quantity: 1,
        unitPriceCents: 250,
        totalCents: 250,
        status: 'delivered' as const,
        provider: 'sandbox' as const,
        sandboxCard: 'ok' as const,
        purchasedAt: new Date(due.getTime() - 30 * 86_400_000),
        expiresAt: due,
      })),
    );
    const stop = new AbortController();
    // The process is told to stop while the third renewal is being made.
    let renewals = 0;
    const spy = t.database.db.transaction.bind(t.database.db);
    const counting = Object.assign(Object.create(Object.getPrototypeOf(db)), db, {
      transaction: (work: Parameters<typeof db.transaction>[0]) =>
        spy(async (tx) => {
          renewals += 1;
          if (renewals === 3) stop.abort();
          return work(tx);
        }),
    }) as typeof db;
    const report = await runJobs({ ...quietRunner(), db: counting, signal: stop.signal }, new Date());
    expect(report.renewed).toBe(3);
    const renewed = await db.select().from(payments).innerJoin(orders, eq(payments.orderId, orders.id));
    expect(renewed.filter((row) => row.orders.productId === 'pk1_isp_proxies')).toHaveLength(3);
    // The next run does the rest.
    expect((await runJobs(quietRunner(), new Date())).renewed).toBe(7);
  });

  it('removes checkouts left unpaid for a week, and keeps recent ones', async () => {
    const db = t.database.db;
    const customer = await signUpCustomer(t, 'walked-away@example.com');
    const now = new Date();
    const [old, recent] = await db
      .insert(orders)
      .values([
        {
          userId: customer.id,
          productId: 'isp_proxies',
          quantity: 5,
          createdAt: new Date(now.getTime() - 8 * 86_400_000),
        },
        { userId: customer.id, productId: 'isp_proxies', quantity: 5, createdAt: new Date(now.getTime() - 86_400_000) },
      ])
      .returning({ id: orders.id });
    const report = await runJobs(quietRunner(), now);
    expect(report.abandonedRemoved).toBe(1);
    expect(
      await db
        .select()
        .from(orders)
        .where(eq(orders.id, old?.id ?? '')),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(orders)
        .where(eq(orders.id, recent?.id ?? '')),
    ).toHaveLength(1);

    // The sandbox clock moved two months ahead does not remove a checkout started a day ago in real time.
    const later = await runJobs(quietRunner(), new Date(now.getTime() + 60 * 86_400_000));
    expect(later.abandonedRemoved).toBe(0);
    expect(
      await db
        .select()
        .from(orders)
        .where(eq(orders.id, recent?.id ?? '')),
    ).toHaveLength(1);
  });
});
