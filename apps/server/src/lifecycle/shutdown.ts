/** What an entry point logs with (pino's shape). */
export interface StopLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Something open that a stop must close, in the reverse order of opening. */
export interface Closable {
  name: string;
  close(): Promise<void>;
  /** What is still going on, said when the stop runs out of time (connections open, a job running). */
  pending?(): Promise<string | undefined> | string | undefined;
}

/** Read by the readiness check: 503 once a stop has begun, so that a load balancer takes the instance out. */
export interface Lifecycle {
  draining: boolean;
}

export interface Shutdown {
  lifecycle: Lifecycle;
  /** Registers what was just opened; closed before everything opened earlier. */
  add(closable: Closable): void;
  /** Run first on a stop: keeps serving for the drain while readiness says 503 (a no-op when drainMs is 0). */
  setDrain(drain: () => Promise<void>): void;
  setLog(log: StopLog): void;
  /** Stops: drain, close everything in reverse order, exit 0; or exit 1 naming what did not finish in time. */
  stop(reason: string): Promise<void>;
}

/**
 * The stop of a long-running process (server, gateway, job runner) on SIGTERM or SIGINT. A second signal changes
 * nothing: Ctrl-C in a terminal reaches both npm and node, and npm passes it on, so node sees it twice.
 */
export function createShutdown(options: {
  log: StopLog;
  timeoutSeconds: number;
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
}): Shutdown {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let log = options.log;
  const open: Closable[] = [];
  let drain: (() => Promise<void>) | undefined;
  let stopping: Promise<void> | undefined;
  const lifecycle: Lifecycle = { draining: false };

  const stop = (reason: string): Promise<void> => {
    if (stopping) {
      log.info({ signal: reason }, 'already stopping; send SIGKILL to stop at once');
      return stopping;
    }
    lifecycle.draining = true;
    log.info({ signal: reason }, 'stopping: finishing what is in flight');
    const remaining = [...open].reverse();
    let current: Closable | undefined = drain ? { name: 'drain (SHUTDOWN_DRAIN_MS)', close: drain } : undefined;
    const timer = setTimeout(async () => {
      const unfinished = await Promise.all(
        [current, ...remaining]
          .filter((item): item is Closable => item !== undefined)
          .map(async (item) => {
            const detail = await Promise.resolve(item.pending?.()).catch(() => undefined);
            return detail ? `${item.name} (${detail})` : item.name;
          }),
      );
      log.error(
        { unfinished, timeoutSeconds: options.timeoutSeconds },
        `not stopped within SHUTDOWN_TIMEOUT_S (${options.timeoutSeconds} s), still open: ${unfinished.join(', ')}`,
      );
      exit(1);
    }, options.timeoutSeconds * 1000);
    stopping = (async () => {
      let failed = false;
      if (current) await current.close().catch(() => {});
      while (remaining.length > 0) {
        current = remaining.shift();
        if (!current) break;
        try {
          await current.close();
        } catch (error) {
          failed = true;
          log.error({ err: error }, `${current.name} did not close cleanly`);
        }
      }
      current = undefined;
      clearTimeout(timer);
      log.info({ clean: !failed }, failed ? 'stopped, with errors' : 'stopped');
      exit(failed ? 1 : 0);
    })();
    return stopping;
  };

  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) process.on(signal, () => void stop(signal));

  return {
    lifecycle,
    add: (closable) => {
      open.push(closable);
    },
    setDrain: (value) => {
      drain = value;
    },
    setLog: (value) => {
      log = value;
    },
    stop,
  };
}
