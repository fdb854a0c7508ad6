import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema.ts';
import type { Mail, Mailer } from '../../lib/mailer.ts';

const MAX_ATTEMPTS = 10;

/** Writes an e-mail in the caller's transaction; a key already used means it was written before, so nothing happens. */
export async function enqueueEmail(tx: Tx | Db, dedupeKey: string, mail: Mail): Promise<void> {
  await emailInsert(tx, dedupeKey, mail);
}

/** The statement enqueueEmail runs, not yet run: to be sent as part of another statement (a WITH clause). */
export function emailInsert(tx: Tx | Db, dedupeKey: string, mail: Mail) {
  return tx
    .insert(emailOutbox)
    .values({ dedupeKey, toAddress: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .returning({ id: emailOutbox.id });
}

/**
 * Sends what the outbox holds. Each message is claimed with FOR UPDATE SKIP LOCKED, so several dispatchers never send the
 * same one; a failure is counted and retried by the next run (at most 10 times).
 */
export async function dispatchOutbox(db: Db, mailer: Mailer, log: FastifyBaseLogger, limit = 50): Promise<number> {
  let sent = 0;
  for (let i = 0; i < limit; i++) {
    const done = await db.transaction(async (tx) => {
      const [message] = await tx
        .select()
        .from(emailOutbox)
        .where(and(isNull(emailOutbox.sentAt), lt(emailOutbox.attempts, MAX_ATTEMPTS)))
        .orderBy(asc(emailOutbox.attempts), asc(emailOutbox.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!message) return 'empty';
      try {
        await mailer.send({
          to: message.toAddress,
          subject: message.subject,
          text: message.text,
          html: message.html,
          id: message.id,
        });
        await tx
          .update(emailOutbox)
          .set({ sentAt: new Date(), attempts: sql`${emailOutbox.attempts} + 1` })
          .where(eq(emailOutbox.id, message.id));
        sent += 1;
        return 'sent';
      } catch (error) {
        log.warn({ err: error, key: message.dedupeKey }, 'e-mail not sent; it will be retried');
        await tx
          .update(emailOutbox)
          .set({ attempts: sql`${emailOutbox.attempts} + 1`, lastError: String(error).slice(0, 500) })
          .where(eq(emailOutbox.id, message.id));
        return 'failed';
      }
    });
    // A failure (mail server down) ends this run; the next one retries.
    if (done !== 'sent') break;
  }
  return sent;
}
