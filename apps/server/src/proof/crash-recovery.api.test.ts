import { BYTES_PER_KB, KB_PER_GB } from '@storefront/contract';
import { eq, isNotNull, isNull, sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailOutbox, orders, payments, proxyIps, webhookEvents } from '../db/schema.ts';
import { createMailer } from '../lib/mailer.ts';
import { sandboxWebhookSecret } from '../payments/sandbox-provider.ts';
import { sandboxPaidPayload } from '../test/payments.ts';
import { freePort, serverMain, spawnGateway, spawnProcess } from '../test/processes.ts';
import { recordProof } from '../test/proof-results.ts';
import { connectThroughProxy, startTargetServer, type TargetServer } from '../test/proxy-client.ts';
import { createResidentialAccount, usedKbOf } from '../test/residential-account.ts';
import { createTestApp, jsonHeaders, signUpCustomer, type TestApp } from '../test/test-app.ts';

const SECRET = 'crash-recovery-secret-of-thirty-two-chars';
const ORDERS = 60;
const FLUSH_MS = 500;

interface ReceivedMail {
  to: string;
  messageId: string;
  subject: string;
}

/**
 * kill -9 in the middle of the work that must never be lost: a burst of paid-checkout webhooks, the periodic job's
 * renewals, and the gateway's metering. The server and the gateway run as their own processes (`npm run serve`,
 * `npm run gateway`) on one PostgreSQL database, with a real SMTP server receiving the mail.
 */
describe.runIf(process.env.TEST_DB === 'postgres')('crash recovery: kill -9 in the middle of a burst', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  let smtpPort = 0;
  let target: TargetServer;
  const mails: ReceivedMail[] = [];
  let boss = '';
  const orderIds: string[] = [];
  const figures: Record<string, number> = {};

  const serverEnv = (port: number) => ({
    DATABASE_URL: t.config.database.kind === 'postgres' ? t.config.database.connectionString : '',
    AUTH_SECRET: SECRET,
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: 'http://localhost:3000',
    SEED_DEMO: 'false',
    GATEWAY_ENABLED: 'false',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'shop@example.com',
    JOBS_INTERVAL_S: '1',
    WEB_DIST_DIR: '/nonexistent',
  });
  const startServer = async () => {
    const port = await freePort();
    const server = await spawnProcess(serverMain, serverEnv(port), /storefront \S+ \(\S+\) ready at/);
    return { server, url: `http://127.0.0.1:${port}` };
  };

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          raw += chunk;
        });
        stream.on('end', () => {
          mails.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','),
            messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? '',
            subject: /^Subject:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? '',
          });
          callback();
        });
      },
    });
    // A server killed in the middle of a message drops its SMTP connection: that is the point, not an error.
    smtp.on('error', () => {});
    smtpPort = await freePort();
    await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
    target = await startTargetServer();

    // The shop's data is set up in-process (the same code), then served by separate processes. Every process sends the
    // outbox's e-mails to the same SMTP server, this one included (it sends the confirmations it queued, and whatever
    // else is due when it does).
    const mailer = createMailer(
      { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, from: 'shop@example.com' },
      pino({ level: 'silent' }),
    );
    t = await createTestApp(
      {
        SEED_DEMO: 'false',
        AUTH_SECRET: SECRET,
        ADMIN_EMAILS: 'boss@example.com',
        AUTH_RATE_LIMIT_PER_IP: '100000',
        CHECKOUT_RATE_LIMIT_PER_USER: '100000',
      },
      { mailer },
    );
    boss = (await signUpCustomer(t, 'boss@example.com')).cookie;
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/admin/stocks/pk1/upload',
      headers: { ...jsonHeaders, cookie: boss },
      payload: {
        ips: Array.from(
          { length: 250 },
          (_, i) => `198.18.${10 + Math.floor(i / 250)}.${(i % 250) + 1}:9000:u${i}:p${i}`,
        ),
      },
    });
    expect(upload.statusCode, upload.body).toBe(200);
    for (let i = 0; i < ORDERS / 2; i++) {
      const buyer = await signUpCustomer(t, `crash${i}@example.com`);
      for (let k = 0; k < 2; k++) {
        await t.app.inject({
          method: 'POST',
          url: '/api/checkout',
          headers: { ...jsonHeaders, cookie: buyer.cookie },
          payload: { productId: 'pk1_isp_proxies', quantity: 5 },
        });
      }
    }
    const placed = await t.database.db.select({ id: orders.id }).from(orders);
    orderIds.push(...placed.map((row) => row.id));
    expect(orderIds).toHaveLength(ORDERS);
    // The test's own app stops: from here on only the processes write.
    await t.app.close();
  }, 180_000);
  afterAll(async () => {
    recordProof('crash recovery', figures);
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    await target?.close();
    await t?.database.close();
  });

  const paidEvent = (orderId: string) => ({
    payload: sandboxPaidPayload({
      eventId: `evt_crash_${orderId}`,
      orderId,
      customerEmail: 'x@example.com',
      invoiceId: `in_crash_${orderId}`,
      periodEnd: null,
    }),
  });
  const sendEvent = async (url: string, payload: string) => {
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: sandboxWebhookSecret(SECRET) });
    try {
      const answer = await fetch(`${url}/api/webhooks/sandbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
        body: payload,
      });
      return answer.status;
    } catch {
      return 0; // the connection died with the server
    }
  };

  it('a paid order is never lost and no IP is handed out twice when the server dies mid-burst of deliveries', async () => {
    const first = await startServer();
    let crashed: Promise<void> | undefined;
    let answered = 0;
    const statuses = await Promise.all(
      orderIds.map(async (orderId, i) => {
        // Spread over 180 ms, so that the kill (after a third are answered) lands while others are still arriving.
        await new Promise((resolve) => setTimeout(resolve, i * 3));
        const status = await sendEvent(first.url, paidEvent(orderId).payload);
        if (status === 200 && ++answered === ORDERS / 3) crashed = first.server.crash();
        return status;
      }),
    );
    await crashed;
    figures.deliveriesAnsweredBeforeKill = statuses.filter((status) => status === 200).length;
    figures.deliveriesCutByKill = statuses.filter((status) => status !== 200).length;
    expect(figures.deliveriesCutByKill, 'the kill landed in the middle').toBeGreaterThan(0);

    // The provider sends again every event it got no 200 for, and some it did (at-least-once): all of them, here.
    const second = await startServer();
    try {
      const again = await Promise.all(orderIds.map((orderId) => sendEvent(second.url, paidEvent(orderId).payload)));
      expect(again.every((status) => status === 200)).toBe(true);
      const db = t.database.db;
      const statusCounts = await db
        .select({ status: orders.status, n: sql<number>`count(*)::int` })
        .from(orders)
        .groupBy(orders.status);
      const byStatus = Object.fromEntries(statusCounts.map((row) => [row.status, row.n]));
      // 250 IPs for 60 orders of 5: 50 delivered, 10 waiting for stock.
      expect(byStatus).toEqual({ delivered: 50, processing: 10 });
      expect(await db.$count(payments)).toBe(ORDERS);
      expect(await db.$count(webhookEvents)).toBe(ORDERS);
      const heldTwice = await db
        .select({ id: proxyIps.endpoint })
        .from(proxyIps)
        .where(isNotNull(proxyIps.assignedOrderId))
        .groupBy(proxyIps.endpoint)
        .having(sql`count(*) > 1`);
      expect(heldTwice).toEqual([]);
      expect(await db.$count(proxyIps, isNotNull(proxyIps.assignedOrderId))).toBe(250);
    } finally {
      await second.server.stop();
    }
  }, 120_000);

  it('renewals killed mid-run are each done once after the restart', async () => {
    const db = t.database.db;
    const delivered = await db.$count(orders, eq(orders.status, 'delivered'));
    const paymentsBefore = await db.$count(payments);
    const next = new Date(Date.now() + 31 * 86_400_000).toISOString();
    const moveClock = (url: string) =>
      fetch(`${url}/api/admin/sandbox/clock`, {
        method: 'POST',
        headers: { ...jsonHeaders, cookie: boss },
        body: JSON.stringify({ now: next }),
      }).catch(() => undefined);

    const first = await startServer();
    // The run renews one order per transaction; the kill comes once some are done and others not.
    const moving = moveClock(first.url);
    await vi.waitFor(async () => expect(await db.$count(payments)).toBeGreaterThan(paymentsBefore), {
      timeout: 20_000,
      interval: 5,
    });
    await first.server.crash();
    await moving;
    figures.renewalsDoneBeforeKill = (await db.$count(payments)) - paymentsBefore;
    // The message the killed server was handing to the mail server stays claimed until its claim runs out (two
    // minutes, longer than a send may take); that time is skipped here, as if it had passed.
    const claimed = await db.execute(
      sql`update email_outbox set next_attempt_at = now() where sent_at is null and last_error is null and attempts > 0 and next_attempt_at > now() returning id`,
    );
    figures.emailsClaimedByKilledServer = (claimed as unknown as { rows: unknown[] }).rows.length;

    const second = await startServer();
    try {
      const answer = await moveClock(second.url);
      expect(answer?.status).toBe(200);
      expect((await db.$count(payments)) - paymentsBefore).toBe(delivered);
      figures.renewals = delivered;
      // Every e-mail the work queued is sent, by this run's job (every second), once.
      await vi.waitFor(async () => expect(await db.$count(emailOutbox, isNull(emailOutbox.sentAt))).toBe(0), {
        timeout: 30_000,
        interval: 100,
      });
    } finally {
      await second.server.stop();
    }
    const [queued] = (
      (await db.execute(sql`select count(*)::int as n from email_outbox`)) as unknown as { rows: { n: number }[] }
    ).rows;
    const ids = new Set(mails.map((mail) => mail.messageId));
    figures.emailsQueued = queued?.n ?? 0;
    figures.emailsReceived = mails.length;
    figures.emailsSentAgainAfterKill = mails.length - ids.size;
    // None lost: every queued message arrived. A message the kill caught between the SMTP server's acceptance and our
    // record of it is sent again with the same Message-ID, which mail clients show once.
    expect(ids.size).toBe(queued?.n);
    expect(figures.emailsSentAgainAfterKill).toBeLessThanOrEqual(2);
  }, 120_000);

  it('metering killed mid-transfer loses at most the bytes of the last batch window', async () => {
    const databaseUrl = t.config.database.kind === 'postgres' ? t.config.database.connectionString : '';
    const customer = await createResidentialAccount(t.database.db, { totalKb: KB_PER_GB });
    const gateway = await spawnGateway(databaseUrl, { GATEWAY_FLUSH_MS: String(FLUSH_MS) });
    let killed: Promise<void> | undefined;
    const started = performance.now();
    const transfer = await connectThroughProxy(
      gateway.port,
      `127.0.0.1:${target.port}`,
      customer.auth,
      '/bytes?n=200000000&delay=2',
      {
        onData: () => {
          // Several batch windows in, so some bytes are written and some are in the window the kill cuts.
          if (performance.now() - started > FLUSH_MS * 4 && !killed) killed = gateway.crash();
        },
      },
    );
    await killed;
    const seconds = (performance.now() - started) / 1000;
    const clientBytes = transfer.sent + transfer.received;
    const meteredBytes = (await usedKbOf(t.database.db, customer.userId)) * BYTES_PER_KB;
    const lost = clientBytes - meteredBytes;
    const perWindow = (clientBytes / seconds) * (FLUSH_MS / 1000);
    figures.meteredBytesLost = Math.max(0, Math.round(lost));
    figures.bytesPerBatchWindow = Math.round(perWindow);
    // What was carried but not yet written when the process died: at most one window's worth (plus a chunk in flight).
    expect(lost).toBeLessThanOrEqual(perWindow * 1.5 + 256 * 1024);
    expect(meteredBytes).toBeGreaterThan(0);
  }, 120_000);
});
