// The periodic job for operators of a PostgreSQL deployment: `npm run jobs -- --once` runs the due work once and exits;
// without --once it runs every JOBS_INTERVAL_S seconds until stopped. Any number of runners (and servers) can run at
// once: each due order is claimed with FOR UPDATE SKIP LOCKED.
import { loadConfigOrExit } from './config.ts';
import { prepareApp } from './start.ts';

async function main() {
  const once = process.argv.includes('--once');
  const config = loadConfigOrExit();
  if (config.database.kind === 'pglite') {
    console.error(
      'The embedded database belongs to the server process, which runs the job itself every JOBS_INTERVAL_S seconds ' +
        '(and, with the sandbox provider, POST /api/admin/sandbox/clock runs it at a chosen time). ' +
        'This command is for PostgreSQL deployments: set DATABASE_URL.',
    );
    process.exit(1);
  }
  const started = await prepareApp({ ...config, jobsIntervalSeconds: 0 });
  const { app } = started;
  await app.ready();
  const runOnce = async () => {
    const report = await app.jobs.runOnce();
    app.log.info({ report }, 'periodic job');
    return report;
  };
  if (once) {
    const report = await runOnce();
    console.log(JSON.stringify(report));
    await started.close();
    return;
  }
  const timer = setInterval(
    () => {
      runOnce().catch((error: unknown) => app.log.error({ err: error }, 'periodic job failed; the next run retries'));
    },
    config.jobsIntervalSeconds * 1000 || 60_000,
  );
  const stop = async () => {
    clearInterval(timer);
    await started.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await runOnce();
}

main().catch((error: unknown) => {
  console.error('The job runner failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
