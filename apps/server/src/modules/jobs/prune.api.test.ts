import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuditLog,
  alerts,
  emailOutbox,
  orders,
  payments,
  residentialAccounts,
  residentialGatewayLeases,
  residentialUsageDaily,
  residentialUsageDomains,
  residentialUsageHourly,
  sessions,
  verifications,
  webhookEvents,
} from '../../db/schema.ts';
import { createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { pruneOldRows } from './prune.ts';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

describe('the periodic job prunes what is past its retention', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_IP: '1000',
      SEED_DEMO: 'false',
      // Set apart from the defaults, to show the settings are the ones read.
      RETENTION_SENT_EMAILS_DAYS: '20',
      RETENTION_RESOLVED_ALERTS_DAYS: '60',
    });
  });
  afterAll(() => t.close());

  it('deletes old rows of each table, keeps recent ones and the business records, and counts them', async () => {
    const db = t.database.db;
    const customer = await signUpCustomer(t, 'prune@example.com');
    const userId = customer.id;
    // Past the settings' retention (20 days for e-mails here), and within it.
    await db.insert(emailOutbox).values([
      { dedupeKey: 'old-sent', toAddress: 'a@example.com', subject: 's', text: 't', html: 'h', sentAt: ago(21) },
      { dedupeKey: 'new-sent', toAddress: 'a@example.com', subject: 's', text: 't', html: 'h', sentAt: ago(19) },
      // Never sent, still trying: kept however old.
      { dedupeKey: 'old-unsent', toAddress: 'a@example.com', subject: 's', text: 't', html: 'h', createdAt: ago(90) },
      // Given up (no try left) long ago: deleted.
      {
        dedupeKey: 'old-given-up',
        toAddress: 'a@example.com',
        subject: 's',
        text: 't',
        html: 'h',
        attempts: 20,
        nextAttemptAt: ago(21),
      },
    ]);
    await db.insert(webhookEvents).values([
      { provider: 'stripe', eventId: 'evt_old', type: 'invoice.paid', receivedAt: ago(46) },
      { provider: 'stripe', eventId: 'evt_new', type: 'invoice.paid', receivedAt: ago(44) },
    ]);
    await db.insert(sessions).values([
      { id: 'old-session', token: 'old-session-token', userId, expiresAt: ago(8) },
      { id: 'just-expired-session', token: 'just-expired-token', userId, expiresAt: ago(6) },
    ]);
    await db.insert(verifications).values([
      { id: 'old-verification', identifier: 'x', value: 'v', expiresAt: ago(8) },
      { id: 'new-verification', identifier: 'x', value: 'v', expiresAt: ago(6) },
    ]);
    const checkout = { userId, productId: 'isp_proxies' as const, quantity: 1 };
    const [abandoned, recentCheckout, oldDelivered] = await db
      .insert(orders)
      .values([
        { ...checkout, createdAt: ago(8) },
        { ...checkout, createdAt: ago(6) },
        {
          ...checkout,
          status: 'expired' as const,
          createdAt: ago(400),
          purchasedAt: ago(400),
          expiresAt: ago(370),
          totalCents: 250,
        },
      ])
      .returning({ id: orders.id });
    await db.insert(payments).values({
      orderId: oldDelivered?.id ?? '',
      userId,
      kind: 'checkout',
      invoiceId: `inv_${randomUUID()}`,
      status: 'paid',
      amountCents: 250,
      currency: 'usd',
      paidAt: ago(400),
      createdAt: ago(400),
    });
    await db.insert(adminAuditLog).values({
      actorUserId: userId,
      actorEmail: 'prune@example.com',
      action: 'test',
      summary: 'an old entry',
      createdAt: ago(400),
    });
    await db.insert(residentialAccounts).values({ userId, username: 'prune', password: 'p' });
    await db.insert(residentialUsageDaily).values({ userId, day: '2025-01-01', usedKb: 10 });
    // Usage analytics past their time (91 days by the hour, 14 months by the day) and within it.
    await db.insert(residentialUsageHourly).values([
      { userId, hour: ago(91), uploadBytes: 1 },
      { userId, hour: ago(89), uploadBytes: 2 },
    ]);
    await db.insert(residentialUsageDomains).values([
      {
        userId,
        day: ago(14 * 31)
          .toISOString()
          .slice(0, 10),
        domain: 'old.example',
        uploadBytes: 1,
      },
      {
        userId,
        day: ago(12 * 30)
          .toISOString()
          .slice(0, 10),
        domain: 'kept.example',
        uploadBytes: 2,
      },
    ]);
    // A slice left by a gateway that died two days ago, and one a running gateway renews.
    await db.insert(residentialGatewayLeases).values([
      { userId, gatewayId: 'died', kb: 1024, expiresAt: ago(2) },
      { userId, gatewayId: 'running', kb: 1024, expiresAt: new Date(Date.now() + 30_000) },
    ]);
    const alert = { kind: 'low_stock' as const, details: {} };
    await db.insert(alerts).values([
      { ...alert, subject: 'old-resolved', openedAt: ago(70), resolvedAt: ago(61) },
      { ...alert, subject: 'new-resolved', openedAt: ago(70), resolvedAt: ago(59) },
      { ...alert, subject: 'open', openedAt: ago(400) },
    ]);

    await t.app.jobs.runOnce();

    const keys = (await db.select({ key: emailOutbox.dedupeKey }).from(emailOutbox)).map((row) => row.key);
    expect(keys).not.toContain('old-sent');
    expect(keys).not.toContain('old-given-up');
    expect(keys).toEqual(expect.arrayContaining(['new-sent', 'old-unsent']));
    expect((await db.select().from(webhookEvents)).map((row) => row.eventId)).toEqual(['evt_new']);
    const sessionIds = (await db.select({ id: sessions.id }).from(sessions)).map((row) => row.id);
    expect(sessionIds).not.toContain('old-session');
    expect(sessionIds).toContain('just-expired-session');
    // The customer's own session (signed in above) stays.
    expect(sessionIds.length).toBeGreaterThanOrEqual(2);
    expect((await db.select({ id: verifications.id }).from(verifications)).map((row) => row.id)).not.toContain(
      'old-verification',
    );
    expect((await db.select({ id: verifications.id }).from(verifications)).map((row) => row.id)).toContain(
      'new-verification',
    );
    const orderIds = (await db.select({ id: orders.id }).from(orders)).map((row) => row.id);
    expect(orderIds).not.toContain(abandoned?.id);
    expect(orderIds).toEqual(expect.arrayContaining([recentCheckout?.id, oldDelivered?.id]));
    expect(await db.select().from(payments).where(eq(payments.userId, userId))).toHaveLength(1);
    expect(await db.select().from(adminAuditLog).where(eq(adminAuditLog.actorUserId, userId))).toHaveLength(1);
    expect(await db.select().from(residentialUsageDaily).where(eq(residentialUsageDaily.userId, userId))).toHaveLength(
      1,
    );
    expect((await db.select().from(residentialUsageHourly)).map((row) => row.uploadBytes)).toEqual([2]);
    expect((await db.select().from(residentialUsageDomains)).map((row) => row.domain)).toEqual(['kept.example']);
    const leases = await db.select({ gatewayId: residentialGatewayLeases.gatewayId }).from(residentialGatewayLeases);
    expect(leases.map((row) => row.gatewayId)).toEqual(['running']);
    expect((await db.select({ subject: alerts.subject }).from(alerts)).map((row) => row.subject).sort()).toEqual([
      'new-resolved',
      'open',
    ]);

    // Counted in the job's metrics, by what was pruned.
    const metrics = await t.app.metrics.registry.getSingleMetricAsString('storefront_pruned_rows_total');
    for (const what of [
      'sent_emails',
      'failed_emails',
      'webhook_events',
      'sessions',
      'verifications',
      'abandoned_checkouts',
      'resolved_alerts',
      'expired_leases',
      'usage_hours',
      'usage_days',
    ]) {
      expect(metrics).toContain(`storefront_pruned_rows_total{what="${what}"} 1`);
    }
  });

  it('deletes in batches of PRUNE_BATCH_SIZE, at most PRUNE_BATCHES_PER_RUN a run, the rest in the next runs', async () => {
    const db = t.database.db;
    const ids = Array.from({ length: 25 }, (_, n) => `evt_batch_${n}`);
    await db
      .insert(webhookEvents)
      .values(ids.map((eventId) => ({ provider: 'sandbox' as const, eventId, type: 'x', receivedAt: ago(100) })));
    const retention = { ...t.config.jobs.retention, batchSize: 10, batchesPerRun: 2 };
    const statements: string[] = [];
    const watched = new Proxy(db, {
      get(target, key, receiver) {
        if (key === 'execute')
          return (query: Parameters<typeof db.execute>[0]) => {
            statements.push(String(key));
            return target.execute(query);
          };
        if (key === 'transaction') throw new Error('pruning takes no transaction');
        return Reflect.get(target, key, receiver);
      },
    });
    const first = await pruneOldRows({ db: watched, retention }, new Date());
    expect(first.webhook_events).toBe(20);
    const second = await pruneOldRows({ db: watched, retention }, new Date());
    expect(second.webhook_events).toBe(5);
    expect(await db.select().from(webhookEvents).where(inArray(webhookEvents.eventId, ids))).toEqual([]);
    // Each batch is a statement of its own.
    expect(statements.length).toBeGreaterThanOrEqual(3);
  });

  it('two runners pruning at once delete each row once between them', async () => {
    const db = t.database.db;
    const customer = await signUpCustomer(t, 'racing@example.com');
    await db.insert(sessions).values(
      Array.from({ length: 60 }, (_, n) => ({
        id: `racing-${n}`,
        token: `racing-token-${n}`,
        userId: customer.id,
        expiresAt: ago(30),
      })),
    );
    const retention = { ...t.config.jobs.retention, batchSize: 10 };
    const [a, b] = await Promise.all([
      pruneOldRows({ db, retention }, new Date()),
      pruneOldRows({ db, retention }, new Date()),
    ]);
    expect((a?.sessions ?? 0) + (b?.sessions ?? 0)).toBe(60);
    expect(await db.select().from(sessions).where(eq(sessions.userId, customer.id))).toHaveLength(1);
  });

  it("prunes by real time: the sandbox's clock moved a year ahead removes no live session nor recent e-mail", async () => {
    const db = t.database.db;
    const customer = await signUpCustomer(t, 'clock-ahead@example.com');
    await db.insert(emailOutbox).values({
      dedupeKey: 'sent-today',
      toAddress: 'a@example.com',
      subject: 's',
      text: 't',
      html: 'h',
      sentAt: new Date(),
    });
    const yearAhead = new Date(Date.now() + 365 * DAY);
    await pruneOldRows({ db, retention: t.config.jobs.retention }, yearAhead);
    expect(await db.select().from(sessions).where(eq(sessions.userId, customer.id))).toHaveLength(1);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, 'sent-today'))).toHaveLength(1);
  });
});
