/** One dependency's state as readiness reports it. */
export type CheckResult = { status: 'ok' } | { status: 'down'; reason: string } | { status: 'not configured' };

export const ok: CheckResult = { status: 'ok' };
export const notConfigured: CheckResult = { status: 'not configured' };
export const down = (reason: string): CheckResult => ({ status: 'down', reason: reason.slice(0, 200) });

/** The checks readiness reports besides the database, each cheap to call (no network call on a readiness request). */
export interface Readiness {
  redis: () => CheckResult;
  smtp: () => CheckResult;
  job: () => CheckResult;
  /** Set by the entry point that runs the gateway in this process; else it is not configured here. */
  gateway: () => CheckResult;
}

/**
 * A probe of a remote dependency run at most every `intervalMs`, in the background: readiness reports the last answer
 * and never waits on the network (a mail server that hangs must not make the readiness call hang). The first answer is
 * `down: not checked yet` until the first probe ends.
 */
export function cachedProbe(
  probe: () => Promise<void>,
  { intervalMs, timeoutMs }: { intervalMs: number; timeoutMs: number },
): { current: () => CheckResult; refresh: () => Promise<void> } {
  let last: CheckResult = down('not checked yet');
  let checkedAt = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | undefined;
  const refresh = () => {
    running ??= (async () => {
      try {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
          timer.unref();
        });
        await Promise.race([probe(), timeout]).finally(() => clearTimeout(timer));
        last = ok;
      } catch (error) {
        last = down(error instanceof Error ? error.message : String(error));
      } finally {
        checkedAt = Date.now();
        running = undefined;
      }
    })();
    return running;
  };
  return {
    current() {
      if (Date.now() - checkedAt >= intervalMs) void refresh();
      return last;
    },
    refresh,
  };
}
