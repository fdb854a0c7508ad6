import { like } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../../db/schema.ts';
import { createMailer } from '../../lib/mailer.ts';
import { freePort } from '../../test/processes.ts';
import { createTestApp, jsonHeaders, type TestApp } from '../../test/test-app.ts';
import { ACCOUNT_EMAIL_KEY_PREFIX } from '../notifications/outbox.ts';

/** A real SMTP server that is down until `start()`, keeping what it receives. */
function lateMailServer(port: number) {
  const received: { to: string; raw: string }[] = [];
  const server = new SMTPServer({
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
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), raw });
        callback();
      });
    },
  });
  return {
    received,
    start: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('account e-mails through the outbox', () => {
  let t: TestApp;
  let mailServer: ReturnType<typeof lateMailServer>;
  beforeAll(async () => {
    const port = await freePort();
    mailServer = lateMailServer(port);
    const mailer = createMailer(
      { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'shop@example.com' },
      pino({ level: 'silent' }),
    );
    t = await createTestApp({}, { mailer });
  });
  afterAll(async () => {
    await t.close();
    await mailServer.stop();
  });

  it('answers a sign-up as usual while the mail server is down, and the confirmation arrives once it is back', async () => {
    const started = performance.now();
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: jsonHeaders,
      payload: { email: 'late@example.com', password: 'Str0ng!pass', name: 'Late', callbackURL: '/auth/callback' },
    });
    expect(answer.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(5000);
    // The sender was woken at once and found the server down: the message waits, with the reason.
    await expect
      .poll(
        async () =>
          (await t.database.db.select().from(emailOutbox).where(like(emailOutbox.dedupeKey, 'account:%')))[0]
            ?.lastError,
      )
      .toMatch(/ECONNREFUSED/);

    await mailServer.start();
    // Its next try is due (the back-off is 30 s; the periodic job would send it then).
    await t.database.db
      .update(emailOutbox)
      .set({ nextAttemptAt: new Date() })
      .where(like(emailOutbox.dedupeKey, 'account:%'));
    await t.app.jobs.runOnce();
    expect(mailServer.received.map((mail) => mail.to)).toEqual(['late@example.com']);
    expect(mailServer.received[0]?.raw).toMatch(/verify-email\?token=/);

    // Sent, its link is wiped from the database: a copy of it opens nothing.
    const [row] = await t.database.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `${ACCOUNT_EMAIL_KEY_PREFIX}%`));
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect(row?.text).toBe('');
    expect(row?.html).toBe('');
  });

  it('wakes the sender at once for a password reset: the mail is there without waiting for the job', async () => {
    const before = mailServer.received.length;
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: jsonHeaders,
      payload: { email: 'late@example.com', redirectTo: '/reset-password' },
    });
    expect(answer.statusCode).toBe(200);
    await expect.poll(() => mailServer.received.length, { timeout: 5000 }).toBe(before + 1);
    expect(mailServer.received.at(-1)?.raw).toMatch(/reset-password/);
  });
});
