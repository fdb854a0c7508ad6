import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { dispatchOutbox } from '../notifications/outbox.ts';
import { jobTime } from './clock.ts';
import { type JobReport, runJobs } from './run-jobs.ts';

export interface JobRunner {
  /** Runs the due work now (or at `at`); a run already in progress is awaited rather than doubled. */
  runOnce(at?: Date): Promise<JobReport>;
  start(intervalSeconds: number): void;
  /** Whether a run is in progress (said when a stop runs out of time). */
  busy(): boolean;
  /** Sends what the e-mail outbox holds, in the background (after a payment event, say). */
  flushEmails(): void;
  stop(): Promise<void>;
}

export function createJobRunner(options: {
  db: Db;
  brand: Branding;
  mailer: Mailer;
  log: FastifyBaseLogger;
  provider: PaymentProvider;
}): JobRunner {
  const sandbox = options.provider.name === 'sandbox';
  const stopping = new AbortController();
  const ctx = {
    db: options.db,
    brand: options.brand,
    mailer: options.mailer,
    log: options.log,
    provider: options.provider.name,
    signal: stopping.signal,
  };
  let running: Promise<JobReport> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function runOnce(at?: Date): Promise<JobReport> {
    while (running) await running.catch(() => {});
    running = (async () => runJobs(ctx, at ?? (await jobTime(options.db, sandbox))))();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  }

  return {
    runOnce,
    busy: () => running !== undefined,
    flushEmails() {
      dispatchOutbox(options.db, options.mailer, options.log).catch((error: unknown) =>
        options.log.error({ err: error }, 'e-mail dispatch failed; the periodic job retries'),
      );
    },
    start(intervalSeconds) {
      if (intervalSeconds <= 0 || timer) return;
      timer = setInterval(() => {
        runOnce().then(
          (report) => {
            if (report.renewed + report.failed + report.expired + report.reminded + report.emailsSent > 0) {
              options.log.info({ report }, 'periodic job');
            }
          },
          (error: unknown) => options.log.error({ err: error }, 'periodic job failed; the next run retries'),
        );
      }, intervalSeconds * 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      // A run in progress finishes the unit of work it is in (one order's transaction) and goes no further.
      stopping.abort();
      await running?.catch(() => {});
    },
  };
}
