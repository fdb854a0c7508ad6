import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { traced } from '../../lib/tracing.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { type CheckResult, down, notConfigured, ok } from '../health/readiness.ts';
import { dispatchOutbox } from '../notifications/outbox.ts';
import { jobTime } from './clock.ts';
import { recordJobRun } from './job-state.ts';
import { type JobReport, runJobs } from './run-jobs.ts';
import { settleProviderSteps } from './settle-provider-steps.ts';

export interface JobRunner {
  /** Runs the due work now (or at `at`); a run already in progress is awaited rather than doubled. */
  runOnce(at?: Date): Promise<JobReport>;
  start(intervalSeconds: number): void;
  /**
   * The cadence of a runner that keeps its own timer (`node . jobs`) rather than start(): recorded with each run, so that
   * any instance can tell when the job has not succeeded for three intervals.
   */
  setCadence(intervalSeconds: number): void;
  /** Whether a run is in progress (said when a stop runs out of time). */
  busy(): boolean;
  /**
   * Readiness of the periodic job in this process: down when it has not succeeded for three intervals (or failed three
   * times in a row); not configured when this process does not run it (JOBS_INTERVAL_S=0).
   */
  health(): CheckResult;
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
  /**
   * Runs after every run, whether it succeeded or failed, once its outcome is recorded (the alert check); its failure is
   * logged and does not change the run's.
   */
  afterRun?: () => Promise<unknown>;
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
  let intervalMs = 0;
  let startedAt = Date.now();
  let lastSuccess: number | undefined;
  let failuresInARow = 0;
  let sending: Promise<void> | undefined;
  let sendAgain = false;
  let lastError = '';

  async function runOnce(at?: Date): Promise<JobReport> {
    while (running) await running.catch(() => {});
    // With traces on, each run is a span, the parent of its queries, provider calls and e-mails.
    running = traced('periodic job', {}, async () => {
      try {
        const report = await runJobs(ctx, at ?? (await jobTime(options.db, sandbox)));
        // Changes at the payment provider that a request left behind (a crash, a timeout): finished or undone.
        await settleProviderSteps({ ...ctx, provider: options.provider });
        lastSuccess = Date.now();
        failuresInARow = 0;
        await recorded({ ok: true });
        return report;
      } catch (error) {
        failuresInARow += 1;
        lastError = error instanceof Error ? error.message : String(error);
        await recorded({ ok: false, error: lastError });
        throw error;
      } finally {
        await options
          .afterRun?.()
          .catch((error: unknown) => options.log.error({ err: error }, 'the check after the periodic job failed'));
      }
    });
    try {
      return await running;
    } finally {
      running = undefined;
    }
  }

  /** The run's outcome in the database, for every instance's alert check; a database that refuses it is logged. */
  async function recorded(outcome: { ok: true } | { ok: false; error: string }) {
    await recordJobRun(options.db, outcome, intervalMs > 0 ? intervalMs / 1000 : undefined).catch((error: unknown) =>
      options.log.error({ err: error }, 'the outcome of the periodic job could not be recorded'),
    );
  }

  function health(): CheckResult {
    if (intervalMs === 0) return notConfigured;
    if (failuresInARow >= 3) return down(`failed ${failuresInARow} times in a row: ${lastError}`);
    const since = lastSuccess ?? startedAt;
    if (Date.now() - since > 3 * intervalMs) {
      return down(
        lastSuccess === undefined ? 'has not succeeded since the start' : 'has not succeeded for three intervals',
      );
    }
    return ok;
  }

  return {
    runOnce,
    busy: () => running !== undefined,
    health,
    flushEmails() {
      // A stopped process starts no new sender: its database is about to close.
      if (stopping.signal.aborted) return;
      // One sender at a time in this process (not one per webhook or sign-up): a burst needs one SMTP connection, and a
      // process that dies strands at most the one message it was sending until its claim runs out.
      if (sending) {
        sendAgain = true;
        return;
      }
      sending = (async () => {
        do {
          sendAgain = false;
          await dispatchOutbox(options.db, options.mailer, options.log);
        } while (sendAgain && !stopping.signal.aborted);
      })()
        .catch((error: unknown) =>
          options.log.error({ err: error }, 'e-mail dispatch failed; the periodic job retries'),
        )
        .finally(() => {
          sending = undefined;
        });
    },
    setCadence(intervalSeconds) {
      intervalMs = Math.max(0, intervalSeconds) * 1000;
      startedAt = Date.now();
    },
    start(intervalSeconds) {
      if (intervalSeconds <= 0 || timer) return;
      intervalMs = intervalSeconds * 1000;
      startedAt = Date.now();
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
      // A message being handed to the mail server is finished, not cut (it would be sent again after its claim).
      await sending;
    },
  };
}
