import type { FastifyBaseLogger } from 'fastify';
import type { JobsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { type CheckResult, down, notConfigured, ok } from '../../lib/readiness.ts';
import { traced } from '../../lib/tracing.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { dispatchOutbox } from '../notifications/outbox.ts';
import { jobTime } from './clock.ts';
import { recordJobRun } from './job-state.ts';
import type { Pruned } from './prune.ts';
import { emptyReport, type JobContext, type JobReport, runJobs } from './run-jobs.ts';
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

export interface JobRunnerOptions {
  db: Db;
  brand: Branding;
  mailer: Mailer;
  log: FastifyBaseLogger;
  provider: PaymentProvider;
  /** The shop's currency: automatic top-ups are charged in it. */
  currency: string;
  /** Batch sizes and retention periods (defaults when absent). */
  settings?: JobsConfig;
  /** Told the rows each prune deleted (the metrics). */
  onPruned?: (what: Pruned, rows: number) => void;
  /**
   * Runs after every run, whether it succeeded or failed, once its outcome is recorded (the alert check); its failure is
   * logged and does not change the run's.
   */
  afterRun?: () => Promise<unknown>;
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const stopping = new AbortController();
  const ctx: JobContext = {
    db: options.db,
    brand: options.brand,
    mailer: options.mailer,
    log: options.log,
    provider: options.provider.name,
    payments: { provider: options.provider, currency: options.currency },
    signal: stopping.signal,
    settings: options.settings,
    onPruned: options.onPruned,
  };
  const record = new RunRecord();
  const emails = outboxSender(options, stopping.signal);
  let running: Promise<JobReport> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function runOnce(at?: Date): Promise<JobReport> {
    while (running) await running.catch(() => {});
    // A run asked for while the last one was under way (a run longer than the interval) waits for it: once the job is
    // stopping it does nothing, as the database is about to close.
    if (stopping.signal.aborted) return emptyReport(at ?? new Date());
    // With traces on, each run is a span, the parent of its queries, provider calls and e-mails.
    running = traced('periodic job', {}, () => runAndRecord(options, ctx, record, at));
    try {
      return await running;
    } finally {
      running = undefined;
    }
  }

  return {
    runOnce,
    busy: () => running !== undefined,
    health: () => record.health(),
    flushEmails: emails.flush,
    setCadence(intervalSeconds) {
      record.setCadence(Math.max(0, intervalSeconds) * 1000);
    },
    start(intervalSeconds) {
      if (intervalSeconds <= 0 || timer) return;
      record.setCadence(intervalSeconds * 1000);
      timer = setInterval(() => {
        runOnce().then(
          (report) => logReport(options.log, report),
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
      await emails.sending();
      options.mailer.close?.();
    },
  };
}

/** One run: the due work, then the provider's unsettled changes; its outcome recorded here and in the database. */
async function runAndRecord(
  options: JobRunnerOptions,
  ctx: JobContext,
  record: RunRecord,
  at: Date | undefined,
): Promise<JobReport> {
  try {
    const report = await runJobs(ctx, at ?? (await jobTime(options.db, options.provider.name === 'sandbox')));
    // Changes at the payment provider that a request left behind (a crash, a timeout): finished or undone.
    await settleProviderSteps({ ...ctx, provider: options.provider });
    record.succeeded();
    await recordInDatabase(options, record, { ok: true });
    return report;
  } catch (error) {
    await recordInDatabase(options, record, { ok: false, error: record.failed(error) });
    throw error;
  } finally {
    await options
      .afterRun?.()
      .catch((error: unknown) => options.log.error({ err: error }, 'the check after the periodic job failed'));
  }
}

/** The run's outcome in the database, for every instance's alert check; a database that refuses it is logged. */
async function recordInDatabase(
  options: JobRunnerOptions,
  record: RunRecord,
  outcome: { ok: true } | { ok: false; error: string },
) {
  const intervalSeconds = record.intervalMs > 0 ? record.intervalMs / 1000 : undefined;
  await recordJobRun(options.db, outcome, intervalSeconds).catch((error: unknown) =>
    options.log.error({ err: error }, 'the outcome of the periodic job could not be recorded'),
  );
}

function logReport(log: FastifyBaseLogger, report: JobReport) {
  const { now: _now, ...counts } = report;
  if (Object.values(counts).some((count) => count > 0)) {
    log.info({ report }, 'periodic job');
  }
}

/** How the periodic job has fared in this process since its cadence was set: its readiness. */
class RunRecord {
  /** 0 while this process does not run the job on a cadence. */
  intervalMs = 0;
  #startedAt = Date.now();
  #lastSuccess: number | undefined;
  #failuresInARow = 0;
  #lastError = '';

  setCadence(intervalMs: number) {
    this.intervalMs = intervalMs;
    this.#startedAt = Date.now();
  }

  succeeded() {
    this.#lastSuccess = Date.now();
    this.#failuresInARow = 0;
  }

  /** Counts the failure; its message. */
  failed(error: unknown): string {
    this.#failuresInARow += 1;
    this.#lastError = error instanceof Error ? error.message : String(error);
    return this.#lastError;
  }

  health(): CheckResult {
    if (this.intervalMs === 0) return notConfigured;
    if (this.#failuresInARow >= 3) return down(`failed ${this.#failuresInARow} times in a row: ${this.#lastError}`);
    const since = this.#lastSuccess ?? this.#startedAt;
    if (Date.now() - since > 3 * this.intervalMs) {
      return down(
        this.#lastSuccess === undefined ? 'has not succeeded since the start' : 'has not succeeded for three intervals',
      );
    }
    return ok;
  }
}

/**
 * Sends what the e-mail outbox holds, in the background. One sender at a time in this process (not one per webhook or
 * sign-up): a burst needs one SMTP connection, and a process that dies strands at most the one message it was sending
 * until its claim runs out. A stopped process starts no new sender: its database is about to close.
 */
function outboxSender(options: Pick<JobRunnerOptions, 'db' | 'mailer' | 'log'>, stopped: AbortSignal) {
  let sending: Promise<void> | undefined;
  let sendAgain = false;
  const flush = () => {
    if (stopped.aborted) return;
    if (sending) {
      sendAgain = true;
      return;
    }
    sending = (async () => {
      do {
        sendAgain = false;
        await dispatchOutbox(options.db, options.mailer, options.log, 50, stopped);
      } while (sendAgain && !stopped.aborted);
    })()
      .catch((error: unknown) => options.log.error({ err: error }, 'e-mail dispatch failed; the periodic job retries'))
      .finally(() => {
        sending = undefined;
      });
  };
  /** The sending under way, if any. */
  return { flush, sending: () => sending };
}
