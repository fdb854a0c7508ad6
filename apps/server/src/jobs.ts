// The periodic job alone (`npm run jobs`, `node . jobs` in a release): `--once` runs the due work once and exits;
// without it, it runs every JOBS_INTERVAL_S seconds until stopped, and a stop ends it between two units of work. Any
// number of runners (and servers) can share a PostgreSQL database: each due order is claimed with FOR UPDATE SKIP
// LOCKED. On the embedded database it runs only while no server holds the folder (a server runs the job itself).
import pino from 'pino';
import { loadConfigOrExit } from './config.ts';
import { serveMetrics } from './lib/metrics-listener.ts';
import { startTracing, stopTracing, tracingLogOptions } from './lib/tracing.ts';
import { DataDirInUse } from './lifecycle/data-dir-lock.ts';
import { createShutdown } from './lifecycle/shutdown.ts';
import { prepareApp } from './start.ts';

async function main() {
  const once = process.argv.includes('--once');
  const config = loadConfigOrExit('jobs');
  // With OTEL_EXPORTER_OTLP_ENDPOINT: each run is a trace, with its queries and e-mails (see main.ts).
  await startTracing('storefront');
  const log = pino({ level: config.logLevel, ...tracingLogOptions() });
  const shutdown = createShutdown({ log, timeoutSeconds: config.shutdown.timeoutSeconds });
  shutdown.add({ name: 'traces', close: stopTracing });
  const started = await prepareApp(
    { ...config, jobsIntervalSeconds: 0 },
    {
      log,
      logger: tracingLogOptions(),
      inUseHint: 'the server runs the periodic job itself, every JOBS_INTERVAL_S seconds',
    },
  );
  const { app } = started;
  shutdown.add({ name: 'database', close: () => started.database.close() });
  shutdown.setLog(app.log);
  shutdown.add({
    name: 'periodic job',
    close: () => app.close(),
    pending: () => (app.jobs.busy() ? 'a unit of work in progress' : undefined),
  });
  await app.ready();
  const runOnce = async () => {
    const report = await app.jobs.runOnce();
    app.log.info({ report }, 'periodic job');
    return report;
  };
  if (once) {
    // The report is the "periodic job" log line: printing it again would show every run twice.
    await runOnce();
    await shutdown.stop('done');
    return;
  }
  await serveMetrics(config.metrics, app.metrics.registry, app.log, shutdown);
  // Its runs are recorded with this cadence: any server can then tell when the job has stopped succeeding.
  app.jobs.setCadence(config.jobsIntervalSeconds || 60);
  const run = () =>
    runOnce().catch((error: unknown) => app.log.error({ err: error }, 'periodic job failed; the next run retries'));
  const timer = setInterval(run, config.jobsIntervalSeconds * 1000 || 60_000);
  shutdown.add({ name: 'job timer', close: async () => clearInterval(timer) });
  await run();
}

main().catch((error: unknown) => {
  if (error instanceof DataDirInUse) console.error(error.message);
  else console.error('The job runner failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
