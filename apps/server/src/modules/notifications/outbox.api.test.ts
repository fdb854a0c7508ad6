import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../../db/schema.ts';
import type { Mail, Mailer } from '../../lib/mailer.ts';
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

  it('backs off from 30 seconds to at most four hours', () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(30)).toBe(4 * 60 * 60);
  });
});
