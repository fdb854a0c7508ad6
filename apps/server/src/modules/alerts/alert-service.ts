import type { FastifyBaseLogger } from 'fastify';
import type { AlertsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { type CheckOutcome, checkConditions, checkJobAlert } from './check-alerts.ts';
import { notifyAlerts } from './notify-alerts.ts';

/** How often every server checks the periodic job on its own timer (one query), whether or not it runs the job. */
export const JOB_WATCH_MS = 60_000;

export interface AlertService {
  /** The whole check: opens and resolves every kind, then e-mails what the hour allows. Runs with the periodic job. */
  check(now?: Date): Promise<CheckOutcome & { mailed: number }>;
  /** The light check of the periodic job alone (the server's timer): works while the job fails or does not run. */
  checkJob(now?: Date): Promise<CheckOutcome & { mailed: number }>;
  /** The whole check in the background, soon (after an administrator's change: stock uploaded, an order fulfilled). */
  checkSoon(): void;
  /** Starts the light check's timer. */
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export function createAlertService(options: {
  db: Db;
  brand: Branding;
  settings: AlertsConfig;
  log: FastifyBaseLogger;
  /** Sends what the outbox holds now (alert e-mails are written there). */
  wakeMailer: () => void;
}): AlertService {
  const { db, log } = options;
  const ctx = { db, brand: options.brand, settings: options.settings };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // One check at a time in this process (another instance may run its own: the database keeps them apart).
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(() => {});
    return next;
  };
  const woken = (mailed: number) => {
    if (mailed > 0 && !stopped) options.wakeMailer();
  };
  const logged = (outcome: CheckOutcome & { mailed: number }) => {
    if (outcome.opened + outcome.resolved + outcome.mailed > 0) log.info({ alerts: outcome }, 'alerts checked');
    return outcome;
  };

  const check = (now?: Date) =>
    serial(async () => {
      const at = now ?? new Date();
      const outcome = await checkConditions(ctx, at);
      const mailed = await notifyAlerts(ctx, at);
      woken(mailed);
      return logged({ ...outcome, mailed });
    });

  const checkJob = (now?: Date) =>
    serial(async () => {
      const at = now ?? new Date();
      const { waiting, ...outcome } = await checkJobAlert(db, at);
      const mailed = waiting ? await notifyAlerts(ctx, at, 'job_stuck') : 0;
      woken(mailed);
      return logged({ ...outcome, mailed });
    });

  let soon: Promise<unknown> | undefined;
  let again = false;
  return {
    check,
    checkJob,
    checkSoon() {
      if (soon) {
        again = true;
        return;
      }
      soon = (async () => {
        do {
          again = false;
          await check();
        } while (again && !stopped);
      })()
        .catch((error: unknown) => log.error({ err: error }, 'alert check failed; the periodic job checks again'))
        .finally(() => {
          soon = undefined;
        });
    },
    start(intervalMs = JOB_WATCH_MS) {
      if (timer || intervalMs <= 0) return;
      timer = setInterval(() => {
        checkJob().catch((error: unknown) =>
          log.error({ err: error }, 'the check of the periodic job failed; it runs again in a minute'),
        );
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await tail;
    },
  };
}
