import { and, asc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema.ts';
import type { Mail, Mailer } from '../../lib/mailer.ts';

/** Tries before a message is given up: with the back-off below, about two days of a mail server that refuses it. */
export const MAX_ATTEMPTS = 20;
/** How long a sender holds a claimed message: longer than the mailer's own timeouts, so a slow send is never doubled. */
const CLAIM_SECONDS = 120;

/**
 * Outbox keys of account e-mails (confirmation, reset, account exists). Their links sign in or set a password, so their
 * text is wiped once sent: a copy of the database then holds no usable link (better-auth keeps its tokens hashed).
 */
export const ACCOUNT_EMAIL_KEY_PREFIX = 'account:';

/** Seconds until the next try after `attempts` failures: 30 s, 1 min, 2 min … at most 4 hours. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 4 * 60 * 60);
}

/** Writes an e-mail in the caller's transaction; a key already used means it was written before, so nothing happens. */
export async function enqueueEmail(tx: Tx | Db, dedupeKey: string, mail: Mail): Promise<void> {
  await tx
    .insert(emailOutbox)
    .values({
      dedupeKey: sql.placeholder('dedupeKey'),
      toAddress: sql.placeholder('to'),
      subject: sql.placeholder('subject'),
      text: sql.placeholder('text'),
      html: sql.placeholder('html'),
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .prepare('enqueue_email')
    .execute({ dedupeKey, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
}

/**
 * Sends what the outbox holds, never inside a database transaction (a slow mail server must not hold a connection or a
 * lock): each message is claimed in one statement (FOR UPDATE SKIP LOCKED, then its next try moved ahead as a lease),
 * sent, and marked sent or given its next try with a back-off. Several senders never send one message at once; a sender
 * that dies after sending leaves the message to be sent again when its lease ends (at least once, never lost).
 * As many messages go at once as the mailer has connections (SMTP_POOL_SIZE), each claimed just before it is sent, so
 * none waits for a connection while its lease runs. At most `limit` messages; a stop ends it between two messages.
 */
export async function dispatchOutbox(
  db: Db,
  mailer: Mailer,
  log: FastifyBaseLogger,
  limit = 50,
  signal?: AbortSignal,
): Promise<number> {
  let sent = 0;
  let claims = 0;
  // Set when the outbox is empty or the mail server refuses: every sender stops after its message in hand.
  let done = false;
  const sender = async () => {
    while (!done && claims < limit && !signal?.aborted) {
      claims += 1;
      const message = await claimNext(db);
      if (!message) {
        done = true;
        return;
      }
      if (await sendClaimed(db, mailer, log, message)) sent += 1;
      // The mail server is down or refusing: this run ends; the message's next try comes with its back-off.
      else done = true;
    }
  };
  const senders = Math.max(1, Math.min(mailer.concurrency ?? 1, limit));
  await Promise.all(Array.from({ length: senders }, sender));
  return sent;
}

type OutboxRow = typeof emailOutbox.$inferSelect;

/** The next due message, claimed for CLAIM_SECONDS; undefined when none is due. */
async function claimNext(db: Db): Promise<OutboxRow | undefined> {
  const due = db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(
      and(
        isNull(emailOutbox.sentAt),
        lt(emailOutbox.attempts, MAX_ATTEMPTS),
        lte(emailOutbox.nextAttemptAt, sql`now()`),
      ),
    )
    .orderBy(asc(emailOutbox.nextAttemptAt), asc(emailOutbox.createdAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [message] = await db
    .update(emailOutbox)
    .set({
      attempts: sql`${emailOutbox.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
    })
    .where(inArray(emailOutbox.id, due))
    .returning();
  return message;
}

/** Sends a claimed message and records the outcome: true when the mail server took it. */
async function sendClaimed(db: Db, mailer: Mailer, log: FastifyBaseLogger, message: OutboxRow): Promise<boolean> {
  try {
    await mailer.send({
      to: message.toAddress,
      subject: message.subject,
      text: message.text,
      html: message.html,
      id: message.id,
    });
  } catch (error) {
    log.warn({ err: error, key: message.dedupeKey, attempts: message.attempts }, 'e-mail not sent; it will be retried');
    await db
      .update(emailOutbox)
      .set({
        lastError: String(error).slice(0, 500),
        nextAttemptAt: sql`now() + make_interval(secs => ${retryDelaySeconds(message.attempts)})`,
      })
      .where(eq(emailOutbox.id, message.id));
    return false;
  }
  const wipe = message.dedupeKey.startsWith(ACCOUNT_EMAIL_KEY_PREFIX) ? { text: '', html: '' } : {};
  await db
    .update(emailOutbox)
    .set({ sentAt: sql`now()`, lastError: null, ...wipe })
    .where(eq(emailOutbox.id, message.id));
  return true;
}
