import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sandboxClock } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/** The time the periodic job runs at: the real time, or later when the sandbox's test clock was moved forward. */
export async function jobTime(db: Db, sandbox: boolean, realNow: Date = new Date()): Promise<Date> {
  if (!sandbox) return realNow;
  const [row] = await db.select().from(sandboxClock).where(eq(sandboxClock.id, 1));
  return row && row.now > realNow ? row.now : realNow;
}

/** Moves the sandbox's test clock forward (never back); answers the new time. */
export async function moveSandboxClock(db: Db, to: Date, realNow: Date = new Date()): Promise<Date> {
  const current = await jobTime(db, true, realNow);
  if (Number.isNaN(to.getTime()))
    throw new AppError('BAD_REQUEST', 'The time is not a valid date, such as 2026-12-24T00:00:00Z.');
  if (to <= current) {
    throw new AppError(
      'BAD_REQUEST',
      `The sandbox clock only moves forward: it is already at ${current.toISOString()}.`,
    );
  }
  await db
    .insert(sandboxClock)
    .values({ id: 1, now: to })
    .onConflictDoUpdate({ target: sandboxClock.id, set: { now: to } });
  return to;
}
