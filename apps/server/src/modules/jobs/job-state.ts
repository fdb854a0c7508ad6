import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { jobState } from '../../db/schema.ts';
import { PERIODIC_JOB } from '../../lib/periodic-job.ts';

/**
 * Records how a run of the periodic job ended, in the database, for every instance to see: a success clears the failures
 * in a row, a failure adds one with its message. `intervalSeconds` is this runner's cadence (undefined for a run made by
 * hand, which leaves the recorded one). Any number of runners record into the one row.
 */
export async function recordJobRun(
  db: Db,
  outcome: { ok: true } | { ok: false; error: string },
  intervalSeconds: number | undefined,
  at: Date = new Date(),
): Promise<void> {
  const interval = intervalSeconds && intervalSeconds > 0 ? intervalSeconds : null;
  const values = outcome.ok
    ? { lastSuccessAt: at, failuresInARow: 0 }
    : { lastFailureAt: at, failuresInARow: 1, lastError: outcome.error.slice(0, 500) };
  await db
    .insert(jobState)
    .values({ name: PERIODIC_JOB, intervalSeconds: interval, createdAt: at, ...values })
    .onConflictDoUpdate({
      target: jobState.name,
      set: {
        intervalSeconds: sql`coalesce(excluded.interval_seconds, ${jobState.intervalSeconds})`,
        ...(outcome.ok
          ? { lastSuccessAt: sql`greatest(${jobState.lastSuccessAt}, excluded.last_success_at)`, failuresInARow: 0 }
          : {
              lastFailureAt: sql`greatest(${jobState.lastFailureAt}, excluded.last_failure_at)`,
              failuresInARow: sql`${jobState.failuresInARow} + 1`,
              lastError: sql`excluded.last_error`,
            }),
      },
    });
}
