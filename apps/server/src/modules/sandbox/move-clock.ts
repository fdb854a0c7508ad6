import type { SandboxClockReport } from '@storefront/contract';
import type { Db } from '../../db/client.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { checkSandboxClockMove, saveSandboxClock } from '../jobs/clock.ts';
import type { JobRunner } from '../jobs/runner.ts';

/**
 * POST /api/admin/sandbox/clock: moves the sandbox's test clock forward and runs the periodic job at that time. The clock
 * is kept only once the run has succeeded: a failed run leaves it where it was (see jobs/clock.ts).
 */
export async function moveSandboxClock({
  db,
  jobs,
  actor,
  to,
}: {
  db: Db;
  jobs: JobRunner;
  actor: Actor;
  to: Date;
}): Promise<SandboxClockReport> {
  const now = await checkSandboxClockMove(db, to);
  const report = await jobs.runOnce(now);
  await db.transaction(async (tx) => {
    await saveSandboxClock(tx, now);
    await recordAudit({
      tx,
      actor,
      action: 'sandbox.clock',
      summary: `Sandbox clock moved to ${now.toISOString()}: ${report.renewed} renewed, ${report.failed} failed, ${report.expired} expired, ${report.reminded} reminded`,
      details: { ...report },
    });
  });
  return report;
}
