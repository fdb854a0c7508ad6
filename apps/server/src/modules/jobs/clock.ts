import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { sandboxClock } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/** The time the periodic job runs at: the real time, or later when the sandbox's test clock was moved forward. */
export async function jobTime(db: Db, sandbox: boolean, realNow: Date = new Date()): Promise<Date> {
  if (!sandbox) return realNow;
  const [row] = await db.select().from(sandboxClock).where(eq(sandboxClock.id, 1));
  return row && row.now > realNow ? row.now : realNow;
}

/** How far ahead of the real time the sandbox's clock may go: years of monthly renewals, and dates every layer can store. */
export const SANDBOX_CLOCK_MAX_YEARS_AHEAD = 5;

/**
 * Checks a move of the sandbox's test clock: a valid date, forward, at most SANDBOX_CLOCK_MAX_YEARS_AHEAD years past the
 * real time. Answers the time to run the job at; `saveSandboxClock` keeps it once the run has succeeded.
 */
export async function checkSandboxClockMove(db: Db, to: Date, realNow: Date = new Date()): Promise<Date> {
  if (Number.isNaN(to.getTime()))
    throw new AppError('BAD_REQUEST', 'The time is not a valid date, such as 2026-12-24T00:00:00Z.');
  const current = await jobTime(db, true, realNow);
  if (to <= current) {
    throw new AppError(
      'BAD_REQUEST',
      `The sandbox clock only moves forward: it is already at ${current.toISOString()}.`,
    );
  }
  const latest = new Date(realNow);
  latest.setUTCFullYear(latest.getUTCFullYear() + SANDBOX_CLOCK_MAX_YEARS_AHEAD);
  if (to > latest) {
    throw new AppError(
      'BAD_REQUEST',
      `The sandbox clock can move at most ${SANDBOX_CLOCK_MAX_YEARS_AHEAD} years ahead of the real time, ` +
        `to ${latest.toISOString()}.`,
    );
  }
  return to;
}

/** Keeps the sandbox's clock at `to` (never moving it back, should two moves cross). */
export async function saveSandboxClock(db: Db | Tx, to: Date): Promise<void> {
  await db
    .insert(sandboxClock)
    .values({ id: 1, now: to })
    .onConflictDoUpdate({ target: sandboxClock.id, set: { now: sql`greatest(${sandboxClock.now}, excluded.now)` } });
}
