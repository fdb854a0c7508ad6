import type { SandboxClockReport } from '@storefront/contract';
import type { Db } from '../../db/client.ts';
import { checkSandboxClockMove, saveSandboxClock } from '../jobs/clock.ts';
import type { JobRunner } from '../jobs/runner.ts';

/**
 * POST /api/admin/sandbox/clock: moves the sandbox's test clock forward and runs the periodic job at that time. The clock
 * is kept only once the run has succeeded: a failed run leaves it where it was (see jobs/clock.ts).
 */
export async function moveSandboxClock({
  db,
  jobs,
  to,
}: {
  db: Db;
  jobs: JobRunner;
  to: Date;
}): Promise<SandboxClockReport> {
  const now = await checkSandboxClockMove(db, to);
  const report = await jobs.runOnce(now);
  await saveSandboxClock(db, now);
  return report;
}
