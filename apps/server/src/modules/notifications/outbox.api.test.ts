import { eq, like, sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../../db/schema.ts';
import { createMailer, type Mail, type Mailer } from '../../lib/mailer.ts';
import { freePort } from '../../test/processes.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { dispatchOutbox, enqueueEmail, retryDelaySeconds } from './outbox.ts';

const mail = (n: number): Mail => ({
  to: `c${n}@example.com`,
  subject: `Message ${n}`,
  text: 'Hello',
  html: '<p>Hello</p>',
});

describe('the e-mail outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: 'false' });
  });
  afterAll(() => t.close());
  const rowOf = async (key: string) =>
    (await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, key)))[0];

  it('asks the mail server outside any transaction: the database answers while a send hangs', async () => {
    await enqueueEmail(t.database.db, 'hang-1', mail(1));
    let release: () => void = () => {};
    const sending: Mail[] = [];
    const hanging: Mailer = {
      delivers: true,
      send: (message) => {
        sending.push(message);
        return new Promise((resolve) => {
          release = resolve;
        });
      },
    };
    const dispatch = dispatchOutbox(t.database.db, hanging, t.app.log, 1);
    await expect.poll(() => sending.length).toBe(1);
    // With the row locked in an open transaction, this would wait on PostgreSQL, and on PGlite (one connection) any
    // query would: the shop froze for as long as the mail server took.
    const started = performance.now();
    const answer = await t.app.inject({ url: '/api/health' });
    expect(answer.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(5000);
    const claimed = await rowOf('hang-1');
    expect(claimed?.sentAt).toBeNull();
    expect(claimed?.attempts).toBe(1);
    // Another sender meanwhile leaves the claimed message alone.
    const other: Mail[] = [];
    await dispatchOutbox(t.database.db, { delivers: true, send: async (m) => void other.push(m) }, t.app.log);
    expect(other.map((m) => m.subject)).not.toContain('Message 1');
    release();
    expect(await dispatch).toBe(1);
    expect((await rowOf('hang-1'))?.sentAt).toBeInstanceOf(Date);
  });

  it('keeps a message the mail server refused and tries it again after a growing delay, then sends it once', async () => {
    await enqueueEmail(t.database.db, 'down-1', mail(2));
    const down: Mailer = {
      delivers: true,
      send: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      },
    };
    expect(await dispatchOutbox(t.database.db, down, t.app.log)).toBe(0);
    const failed = await rowOf('down-1');
    expect(failed?.sentAt).toBeNull();
    expect(failed?.lastError).toContain('ECONNREFUSED');
    expect(failed?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    // Not tried again before its time.
    const sent: Mail[] = [];
    const up: Mailer = { delivers: true, send: async (m) => void sent.push(m) };
    await dispatchOutbox(t.database.db, up, t.app.log);
    expect(sent.map((m) => m.subject)).not.toContain('Message 2');
    // Its time comes: sent, once.
    await t.database.db
      .update(emailOutbox)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(emailOutbox.dedupeKey, 'down-1'));
    await dispatchOutbox(t.database.db, up, t.app.log);
    await dispatchOutbox(t.database.db, up, t.app.log);
    expect(sent.filter((m) => m.subject === 'Message 2')).toHaveLength(1);
    expect((await rowOf('down-1'))?.lastError).toBeNull();
  });

  it('never sends a message twice with two senders at once, each sending several at a time', async () => {
    for (let n = 0; n < 40; n++) await enqueueEmail(t.database.db, `race-${n}`, mail(100 + n));
    const sent: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const slow = (): Mailer => ({
      delivers: true,
      concurrency: 4,
      async send(message) {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 10));
        sent.push(message.subject);
        inFlight -= 1;
      },
    });
    const [a, b] = await Promise.all([
      dispatchOutbox(t.database.db, slow(), t.app.log, 100),
      dispatchOutbox(t.database.db, slow(), t.app.log, 100),
    ]);
    const raced = sent.filter((subject) => /^Message 1[0-3]\d$/.test(subject));
    expect(raced).toHaveLength(40);
    expect(new Set(raced).size).toBe(40);
    expect(a + b).toBe(sent.length);
    // Several at once, never more than the two senders' connections.
    expect(mostInFlight).toBeGreaterThan(1);
    expect(mostInFlight).toBeLessThanOrEqual(8);
    const rows = await t.database.db.select().from(emailOutbox).where(like(emailOutbox.dedupeKey, 'race-%'));
    expect(rows.every((row) => row.sentAt !== null && row.attempts === 1)).toBe(true);
  });

  it('sends through SMTP_POOL_SIZE connections to the mail server, kept open from one message to the next', async () => {
    const port = await freePort();
    let open = 0;
    let mostOpen = 0;
    let connections = 0;
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onConnect(_session, callback) {
        connections += 1;
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        callback();
      },
      onClose() {
        open -= 1;
      },
      onData(stream, _session, callback) {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          raw += chunk;
        });
        stream.on('end', () => {
          received.push(/^Subject: (.*)$/m.exec(raw)?.[1] ?? '');
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const pooled = await createTestApp({
      SEED_DEMO: 'false',
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      SMTP_POOL_SIZE: '3',
    });
    const mailer = createMailer(pooled.config.mail, pino({ level: 'silent' }));
    try {
      expect(mailer.concurrency).toBe(3);
      for (let n = 0; n < 30; n++) await enqueueEmail(pooled.database.db, `pool-${n}`, mail(200 + n));
      expect(await dispatchOutbox(pooled.database.db, mailer, pooled.app.log, 100)).toBe(30);
      expect(received.filter((subject) => subject.startsWith('Message 2'))).toHaveLength(30);
      expect(mostOpen).toBeGreaterThan(1);
      expect(mostOpen).toBeLessThanOrEqual(3);
      expect(connections).toBeLessThanOrEqual(3);
    } finally {
      mailer.close?.();
      await pooled.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('backs off from 30 seconds to at most four hours', () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(30)).toBe(4 * 60 * 60);
  });
});
