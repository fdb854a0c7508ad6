import { eq, like, sql } from 'drizzle-orm';
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

  it('reminds an order whose expiry was edited by hand once, comparing at the database precision', async () => {
    const db = t.database.db;
    const customer = await signUpCustomer(t, 'edited@example.com');
    const [order] = await db
      .insert(orders)
      .values({
        userId: customer.id,
        productId: 'isp_proxies',
        quantity: 1,
        unitPriceCents: 250,
        totalCents: 250,
        status: 'delivered',
        provider: 'sandbox',
        sandboxCard: 'ok',
        purchasedAt: new Date(Date.now() - 28 * 86_400_000),
        expiresAt: new Date(Date.now() + 2 * 86_400_000),
      })
      .returning({ id: orders.id });
    const id = order?.id ?? '';
    // An expiry set by hand in SQL carries microseconds, which a JavaScript date cannot hold.
    await db.execute(
      sql`update orders set expires_at = date_trunc('second', now()) + interval '2 days 0.123456 seconds' where id = ${id}`,
    );
    const first = await runJobs(quietRunner(), new Date());
    expect(first.reminded).toBe(1);
    const [check] = await db
      .select({ same: sql<boolean>`${orders.remindedFor} = ${orders.expiresAt}` })
      .from(orders)
      .where(eq(orders.id, id));
    expect(check?.same).toBe(true);
    const again = await runJobs(quietRunner(), new Date());
    expect(again.reminded).toBe(0);
    const reminders = await db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `reminder:${id}:%`));
    expect(reminders).toHaveLength(1);

    // A new period end set by hand is a new period: reminded once more.
    await db.execute(
      sql`update orders set expires_at = expires_at + interval '1 hour 0.000007 seconds' where id = ${id}`,
    );
    expect((await runJobs(quietRunner(), new Date())).reminded).toBe(1);
    expect((await runJobs(quietRunner(), new Date())).reminded).toBe(0);
  });

  it('claims the due reminders by the index of unreminded orders', async () => {
    // The plan for the reminder's claim: the partial index, not a walk over every order due in the next three days.
    // A test database is small enough for a scan of the table to win: scans are put out of the running.
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(
        sql`explain select * from orders where status = 'delivered' and not cancelled and not payment_failed
              and reminded_for is distinct from expires_at and expires_at > now() and expires_at <= now() + interval '3 days'
            order by expires_at, id limit 1 for update skip locked`,
      );
    });
    const rows = ((plan as { rows?: unknown[] }).rows ?? (plan as unknown as unknown[])) as Record<string, string>[];
    const text = rows.map((r) => Object.values(r).join(' ')).join('\n');
    expect(text).toContain('orders_remind_idx');
  });

  // Last: it stops the app's job runner.
  it('a run asked for once the job is stopping does nothing (its database is about to close)', async () => {
    const db = t.database.db;
    const customer = await signUpCustomer(t, 'after-stop@example.com');
    const due = new Date(Date.now() - 3_600_000);
    const [order] = await db
      .insert(orders)
      .values({
        userId: customer.id,
        productId: 'isp_proxies',
        quantity: 1,
        unitPriceCents: 250,
        totalCents: 250,
        status: 'delivered',
        provider: 'sandbox',
        sandboxCard: 'ok',
        purchasedAt: new Date(due.getTime() - 30 * 86_400_000),
        expiresAt: due,
      })
      .returning({ id: orders.id });
    await t.app.jobs.stop();
    const report = await t.app.jobs.runOnce();
    expect(report.renewed).toBe(0);
    expect(
      await db
        .select()
        .from(payments)
        .where(eq(payments.orderId, order?.id ?? '')),
    ).toEqual([]);
  });
});
