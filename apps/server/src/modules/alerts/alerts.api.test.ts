import { type AdminAlerts, ALERT_KIND_TITLES, type AlertKind } from '@storefront/contract';
import { and, eq, inArray, isNull, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, alerts, emailOutbox, jobState, orders, proxyIps, users } from '../../db/schema.ts';
import type { Mail } from '../../lib/mailer.ts';
import { PERIODIC_JOB } from '../../lib/periodic-job.ts';
import { testBrand } from '../../test/payments.ts';
import { callApi, createTestApp, jsonHeaders, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { recordJobRun } from '../jobs/job-state.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { createAlertService } from './alert-service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The alerts, on both databases. The check takes its time as an argument: each test runs it at times
 * of its own, hours apart, instead of waiting.
 */
describe('alerts', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let ann: { cookie: string; id: string };
  /** Every e-mail of `kind` sent so far, by recipient. */
  const alertMails = (kind: AlertKind): Mail[] =>
    t.mails.filter((mail) => /^Alerts?: /.test(mail.subject) && mail.subject.includes(ALERT_KIND_TITLES[kind]));
  const recipientsOf = (mails: Mail[]) => mails.map((mail) => mail.to).sort();
  const open = (kind: AlertKind) =>
    t.database.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.kind, kind), isNull(alerts.resolvedAt)));
  const ofKind = (kind: AlertKind) => t.database.db.select().from(alerts).where(eq(alerts.kind, kind));
  const audited = async (action: string, kind: AlertKind) =>
    (await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, action))).filter(
      (entry) => entry.details.kind === kind,
    );
  const check = async (at: Date) => {
    const outcome = await t.app.alerts.check(at);
    await t.mailsSettled();
    return outcome;
  };
  const waitingOrder = async (quantity: number, paidAt: Date, extra: Partial<typeof orders.$inferInsert> = {}) => {
    const [order] = await t.database.db
      .insert(orders)
      .values({
        userId: ann.id,
        productId: 'isp_proxies',
        quantity,
        status: 'processing',
        provider: 'sandbox',
        purchasedAt: paidAt,
        unitPriceCents: 250,
        totalCents: 250 * quantity,
        ...extra,
      })
      .returning();
    if (!order) throw new Error('no order');
    return order;
  };
  /** Delivers an order as a fulfilment would (the condition ends; the check notices). */
  const deliver = (id: string) => t.database.db.update(orders).set({ status: 'delivered' }).where(eq(orders.id, id));

  beforeAll(async () => {
    t = await createTestApp({
      ADMIN_EMAILS: 'boss@example.com',
      // An administrator listed twice is told once.
      ALERT_EMAILS: 'pager@example.com, Boss@Example.com',
      LOW_STOCK_ALERT_IPS: '20',
      AUTH_RATE_LIMIT_PER_IP: '1000',
    });
    boss = await signUpCustomer(t, 'boss@example.com');
    ann = await signUpCustomer(t, 'ann@example.com');
    // An administrator whose address was never confirmed, and a banned one: neither is told.
    const ghost = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: jsonHeaders,
      payload: { email: 'ghost@example.com', password: 'Str0ng!pass', name: 'Ghost', callbackURL: '/auth/callback' },
    });
    expect(ghost.statusCode).toBe(200);
    await signUpCustomer(t, 'banned@example.com');
    await t.database.db
      .update(users)
      .set({ role: 'admin' })
      .where(inArray(users.email, ['ghost@example.com', 'banned@example.com']));
    await t.database.db.update(users).set({ banned: true }).where(eq(users.email, 'banned@example.com'));
    await t.mailsSettled();
  });
  afterAll(() => t.close());

  it('a paid order waiting for stock: opened once, e-mailed once to the confirmed administrators and ALERT_EMAILS, listed, resolved when stock arrives', async () => {
    const paidAt = new Date(Date.now() - 5 * MINUTE);
    // More than the demo pool holds (508 Elite ISP IPs).
    const order = await waitingOrder(600, paidAt);
    const now = new Date();
    await check(now);
    await check(new Date(now.getTime() + MINUTE));
    expect(await open('order_waiting')).toHaveLength(1);

    const mails = alertMails('order_waiting');
    expect(recipientsOf(mails)).toEqual(['boss@example.com', 'pager@example.com']);
    const [mail] = mails;
    expect(mail?.subject).toMatch(/^Alert: Paid orders waiting: Order #\w{8} of ann@example\.com/);
    expect(mail?.text).toContain('Elite ISP Proxies, 600 IPs');
    expect(mail?.text).toContain('waits for stock');
    expect(mail?.text).toContain('Upload IPs to the pool');
    expect(mail?.html).toContain('Open the admin console');
    expect(await audited('alert.open', 'order_waiting')).toHaveLength(1);

    // The console lists it to administrators only.
    const listed = await t.app.inject({ url: '/api/admin/alerts', headers: { cookie: boss.cookie } });
    expect(listed.statusCode).toBe(200);
    const body = listed.json() as AdminAlerts;
    expect(body.counts.order_waiting).toBe(1);
    expect(body.alerts).toContainEqual(
      expect.objectContaining({ kind: 'order_waiting', tab: 'inventory', summary: expect.stringContaining('600 IPs') }),
    );
    expect((await t.app.inject({ url: '/api/admin/alerts', headers: { cookie: ann.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/alerts' })).statusCode).toBe(401);

    // Stock arrives through the console: the order is delivered and its alert resolves by itself (the upload runs the
    // check in the background), once.
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/admin/stocks/isp/upload',
      headers: { ...jsonHeaders, cookie: boss.cookie },
      payload: { ips: Array.from({ length: 200 }, (_, i) => `198.18.7.${i + 1}:9000:u${i}:p${i}`) },
    });
    expect(upload.json()).toMatchObject({ added: 200, delivered: 1 });
    await expect.poll(async () => (await open('order_waiting')).length).toBe(0);
    await check(new Date());
    const [row] = await ofKind('order_waiting');
    expect(row?.subject).toBe(order.id);
    expect(row?.resolvedAt).toBeInstanceOf(Date);
    expect(await audited('alert.resolve', 'order_waiting')).toHaveLength(1);
    expect(alertMails('order_waiting')).toHaveLength(2);
  });

  it('gathers the further alerts of a kind within the hour into at most one digest an hour', async () => {
    await t.database.db.update(orders).set({ status: 'delivered' }).where(eq(orders.status, 'processing'));
    const t0 = new Date(Date.now() + 24 * HOUR);
    const before = alertMails('order_waiting').length;
    const a = await waitingOrder(1000, t0, { productId: 'pk1_isp_proxies' });
    await check(t0);
    // The first of the kind in its hour: at once.
    expect(alertMails('order_waiting')).toHaveLength(before + 2);

    const b = await waitingOrder(700, new Date(t0.getTime() + 5 * MINUTE));
    const c = await waitingOrder(800, new Date(t0.getTime() + 6 * MINUTE));
    await check(new Date(t0.getTime() + 10 * MINUTE));
    const d = await waitingOrder(900, new Date(t0.getTime() + 20 * MINUTE));
    await check(new Date(t0.getTime() + 30 * MINUTE));
    // c is delivered before the digest: it needs nobody any more, and is left out.
    await deliver(c.id);
    await check(new Date(t0.getTime() + 40 * MINUTE));
    expect(alertMails('order_waiting')).toHaveLength(before + 2);

    await check(new Date(t0.getTime() + 61 * MINUTE));
    const digests = alertMails('order_waiting').slice(before + 2);
    expect(recipientsOf(digests)).toEqual(['boss@example.com', 'pager@example.com']);
    const [digest] = digests;
    expect(digest?.subject).toBe('Alerts: Paid orders waiting (2 new)');
    expect(digest?.text).toContain('700 IPs');
    expect(digest?.text).toContain('900 IPs');
    expect(digest?.text).not.toContain('800 IPs');
    expect(digest?.html).toContain('<li');
    // The advice of the kind, not of one of its alerts; the alerts oldest first.
    expect(digest?.text).toContain('Upload IPs or raise the residential pool');
    expect(digest?.text.indexOf('700 IPs')).toBeLessThan(digest?.text.indexOf('900 IPs') ?? 0);

    // Nothing new: nothing sent. A new alert 10 minutes after the digest waits for the next hour's.
    await check(new Date(t0.getTime() + 62 * MINUTE));
    const e = await waitingOrder(950, new Date(t0.getTime() + 70 * MINUTE));
    await check(new Date(t0.getTime() + 71 * MINUTE));
    await check(new Date(t0.getTime() + 120 * MINUTE));
    expect(alertMails('order_waiting')).toHaveLength(before + 4);
    await check(new Date(t0.getTime() + 122 * MINUTE));
    expect(alertMails('order_waiting')).toHaveLength(before + 6);
    // A digest of one says it as its own e-mail.
    expect(alertMails('order_waiting').at(-1)?.text).toContain('950 IPs');

    for (const order of [a, b, d, e]) await deliver(order.id);
    await check(new Date(t0.getTime() + 130 * MINUTE));
    expect(await open('order_waiting')).toEqual([]);
  });

  it('two instances checking at once open each alert once and send one e-mail to each recipient', async () => {
    const instance = () =>
      createAlertService({
        db: t.database.db,
        brand: testBrand,
        settings: t.config.alerts,
        log: t.app.log,
        wakeMailer: () => {},
      });
    const [one, two] = [instance(), instance()];
    const openedBefore = (await audited('alert.open', 'order_waiting')).length;
    const writtenBefore = await t.database.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, 'alert%order_waiting%'));
    const t0 = new Date(Date.now() + 48 * HOUR);
    const orderIds = [];
    for (let i = 0; i < 5; i++) orderIds.push((await waitingOrder(600 + i, t0)).id);
    const outcomes = await Promise.all([one.check(t0), two.check(t0), one.check(t0), two.check(t0)]);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.opened, 0)).toBe(5);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.mailed, 0)).toBe(2);
    expect(await open('order_waiting')).toHaveLength(5);
    const written = await t.database.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, 'alert%order_waiting%'));
    expect(written.length - writtenBefore.length).toBe(2);
    expect(await audited('alert.open', 'order_waiting')).toHaveLength(openedBefore + 5);
    await Promise.all([one.stop(), two.stop()]);
    await t.database.db.update(orders).set({ status: 'delivered' }).where(inArray(orders.id, orderIds));
    await check(new Date(t0.getTime() + MINUTE));
    expect(await open('order_waiting')).toEqual([]);
  });

  it('a pool below its level opens a low-stock alert, which follows the stock and resolves when IPs arrive', async () => {
    const t0 = new Date(Date.now() + 72 * HOUR);
    const before = alertMails('low_stock').length;
    // Burn all but 15 of the free PK1 IPs (a pool switched off for sale would say nothing: see below).
    const free = await t.database.db
      .select({ id: proxyIps.id })
      .from(proxyIps)
      .where(
        and(
          eq(proxyIps.productId, 'pk1_isp_proxies'),
          isNull(proxyIps.assignedOrderId),
          eq(proxyIps.needRotated, false),
        ),
      );
    const burnt = free.slice(15).map((row) => row.id);
    await t.database.db.update(proxyIps).set({ needRotated: true }).where(inArray(proxyIps.id, burnt));
    await check(t0);
    const [alert] = await open('low_stock');
    expect(alert).toMatchObject({ subject: 'pk1_isp_proxies', details: { available: 15, threshold: 20 } });
    const mails = alertMails('low_stock').slice(before);
    expect(recipientsOf(mails)).toEqual(['boss@example.com', 'pager@example.com']);
    expect(mails[0]?.subject).toBe('Alert: Low stock: PK1 ISP Proxies: 15 IPs free, below the alert level of 20 IPs.');

    // Fewer still: the same alert, telling the figure of now; no second e-mail.
    await t.database.db
      .update(proxyIps)
      .set({ needRotated: true })
      .where(inArray(proxyIps.id, [free[0]?.id ?? '']));
    await check(new Date(t0.getTime() + MINUTE));
    expect(await open('low_stock')).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ available: 14 }) }),
    ]);
    expect(alertMails('low_stock')).toHaveLength(before + 2);

    // Switched off for sale: nothing to alert about.
    const features = await t.app.inject({ url: '/api/admin/features', headers: { cookie: boss.cookie } });
    const off = (features.json() as { featureName: string; isEnabled: boolean }[]).map((flag) => ({
      ...flag,
      isEnabled: flag.featureName !== 'pk1_isp_proxies',
    }));
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/features',
      headers: { ...jsonHeaders, cookie: boss.cookie },
      payload: off,
    });
    await check(new Date(t0.getTime() + 2 * MINUTE));
    expect(await open('low_stock')).toEqual([]);
    const on = off.map((flag) => ({ ...flag, isEnabled: true }));
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/features',
      headers: { ...jsonHeaders, cookie: boss.cookie },
      payload: on,
    });
    await check(new Date(t0.getTime() + 3 * MINUTE));
    expect(await open('low_stock')).toHaveLength(1);

    // IPs arrive: resolved.
    await t.database.db.update(proxyIps).set({ needRotated: false }).where(inArray(proxyIps.id, burnt));
    await check(new Date(t0.getTime() + 4 * MINUTE));
    expect(await open('low_stock')).toEqual([]);
    expect((await audited('alert.resolve', 'low_stock')).length).toBeGreaterThanOrEqual(2);
  });

  it('the residential pool below LOW_STOCK_ALERT_GB opens its own alert', async () => {
    const t0 = new Date(Date.now() + 96 * HOUR);
    const residential = (mb: number) =>
      callApi(t, 'PUT', '/api/admin/stocks/residential', { cookie: boss.cookie, payload: { bandwidthLimit: mb } });
    expect((await residential(49_999)).statusCode).toBe(200);
    await check(t0);
    expect(await open('low_stock')).toEqual([
      expect.objectContaining({ subject: 'residential_proxies', details: expect.objectContaining({ available: 49 }) }),
    ]);
    expect(alertMails('low_stock').at(-1)?.subject).toBe(
      'Alert: Low stock: Residential Proxies: 49 GB free, below the alert level of 50 GB.',
    );
    expect((await residential(500_000)).statusCode).toBe(200);
    await check(new Date(t0.getTime() + MINUTE));
    expect(await open('low_stock')).toEqual([]);
  });

  it('an e-mail failing for over an hour opens an alert, resolved once it is sent or given up; alert e-mails never do', async () => {
    const t0 = new Date(Date.now() + 120 * HOUR);
    const failing = async (key: string) => {
      await enqueueEmail(t.database.db, key, {
        to: 'carol@example.com',
        subject: 'Receipt: $2.50',
        text: 'x',
        html: 'x',
      });
      await t.database.db
        .update(emailOutbox)
        .set({
          attempts: 4,
          lastError: 'Error: connect ECONNREFUSED 127.0.0.1:25',
          createdAt: new Date(t0.getTime() - 61 * MINUTE),
          // Not due: the test's own sender must not send it.
          nextAttemptAt: new Date(Date.now() + 10 * 24 * HOUR),
        })
        .where(eq(emailOutbox.dedupeKey, key));
    };
    await failing('receipt:stuck-1');
    await failing('receipt:stuck-2');
    await failing('alert:some-alert:ops@example.com');
    const before = alertMails('outbox_failing').length;
    await check(t0);
    const opened = await open('outbox_failing');
    expect(opened).toHaveLength(2);
    const mails = alertMails('outbox_failing').slice(before);
    expect(recipientsOf(mails)).toEqual(['boss@example.com', 'pager@example.com']);
    // Two at once in a kind's first e-mail: one message listing both; the address is masked.
    expect(mails[0]?.subject).toBe('Alerts: E-mails not sent (2 new)');
    expect(mails[0]?.text).toContain('An e-mail to c***@example.com ("Receipt: $2.50")');
    expect(mails[0]?.text).toContain('after 4 tries: Error: connect ECONNREFUSED 127.0.0.1:25');
    expect(mails[0]?.text).not.toContain('carol@');

    await t.database.db.update(emailOutbox).set({ sentAt: t0 }).where(eq(emailOutbox.dedupeKey, 'receipt:stuck-1'));
    await t.database.db.update(emailOutbox).set({ attempts: 20 }).where(eq(emailOutbox.dedupeKey, 'receipt:stuck-2'));
    await check(new Date(t0.getTime() + MINUTE));
    expect(await open('outbox_failing')).toEqual([]);
    expect(await audited('alert.resolve', 'outbox_failing')).toHaveLength(2);
  });

  it('the periodic job: failed three times in a row, or silent for three intervals, from the database, by any instance', async () => {
    const db = t.database.db;
    // Runs of the job record their outcome, whichever instance runs them.
    t.app.jobs.setCadence(60);
    await t.app.jobs.runOnce();
    const [state] = await db.select().from(jobState).where(eq(jobState.name, PERIODIC_JOB));
    expect(state).toMatchObject({ intervalSeconds: 60, failuresInARow: 0, lastSuccessAt: expect.any(Date) });

    // The job fails three times in a row (its database refuses it); the server's light check, on its own timer, opens
    // the alert while the job itself keeps failing.
    const select = db.select;
    db.select = (() => {
      throw new Error('relation "orders" is locked');
    }) as unknown as typeof select;
    try {
      for (let i = 0; i < 3; i++) await expect(t.app.jobs.runOnce()).rejects.toThrow();
    } finally {
      db.select = select;
    }
    expect((await db.select().from(jobState))[0]).toMatchObject({
      failuresInARow: 3,
      lastError: 'relation "orders" is locked',
    });
    const before = alertMails('job_stuck').length;
    await t.app.alerts.checkJob();
    await t.app.alerts.checkJob();
    await t.mailsSettled();
    expect(await open('job_stuck')).toHaveLength(1);
    const mails = alertMails('job_stuck').slice(before);
    expect(recipientsOf(mails)).toEqual(['boss@example.com', 'pager@example.com']);
    expect(mails[0]?.subject).toBe(
      'Alert: Periodic job stuck: The periodic job failed 3 times in a row: relation "orders" is locked.',
    );

    // It succeeds: the check after the run resolves the alert.
    await t.app.jobs.runOnce();
    expect(await open('job_stuck')).toEqual([]);

    // Silent: the last success more than three intervals ago (a runner that died), noticed by the light check alone.
    const t0 = new Date(Date.now() + 144 * HOUR);
    await recordJobRun(db, { ok: true }, 60, new Date(t0.getTime() - 3 * MINUTE - 1000));
    await t.app.alerts.checkJob(new Date(t0.getTime() - 3 * MINUTE + 1000));
    expect(await open('job_stuck')).toEqual([]);
    await t.app.alerts.checkJob(t0);
    await t.mailsSettled();
    const [silent] = await open('job_stuck');
    expect(silent?.details).toMatchObject({ failuresInARow: 0, intervalSeconds: 60 });
    expect(alertMails('job_stuck').at(-1)?.subject).toMatch(
      /^Alert: Periodic job stuck: The periodic job has not succeeded since .* \(three runs of 60 s\)\.$/,
    );
    await recordJobRun(db, { ok: true }, 60, t0);
    await t.app.alerts.checkJob(new Date(t0.getTime() + MINUTE));
    expect(await open('job_stuck')).toEqual([]);
    expect(await audited('alert.open', 'job_stuck')).toHaveLength(2);
    expect(await audited('alert.resolve', 'job_stuck')).toHaveLength(2);
  });

  it('the audit log says who: the shop itself', async () => {
    const [entry] = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, 'alert.open'))
      .orderBy(sql`${adminAuditLog.createdAt}`)
      .limit(1);
    expect(entry).toMatchObject({ actorUserId: 'system', actorEmail: 'system (alerts)' });
    expect(entry?.summary).toMatch(/^Opened: Paid orders waiting: Order #/);
  });
});
