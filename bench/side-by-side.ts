// Fair comparisons: the server under test and the reference each in its own process, autocannon in this one, the same
// connections, warm-up and measured time for both, in the same run. This machine's speed drifts within a run (the same
// hello-world gave 22,000 and 43,000 requests a second in two 10-second windows a minute apart), so the measured time is
// cut into short slices taken in turn (reference, ours, ours, reference, …): a fast or a slow moment falls on both
// alike, and the ratio is of the totals over the same minute. The spread of the slices' own ratios is printed beside it.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { spawnOwned } from './start-server.ts';

const root = path.resolve(import.meta.dirname, '..');
export const LOAD = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  /** Measured seconds for each server and comparison, in slices of `sliceSeconds`. */
  seconds: Number(process.env.BENCH_SECONDS ?? 12),
  sliceSeconds: 2,
  warmupSeconds: 2,
};

/**
 * Starts the bare Fastify hello-world in its own process and waits until it answers; with `replayUrl`, the same bare
 * Fastify answering that URL's answer instead (bench/hello-server.ts).
 */
export async function startHelloWorld(port: number, replayUrl?: string): Promise<ChildProcess> {
  const args = [path.join(root, 'bench/hello-server.ts'), String(port), ...(replayUrl ? [replayUrl] : [])];
  const child = spawnOwned(process.execPath, args, { stdio: 'inherit' });
  for (let attempt = 0; attempt < 100; attempt++) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new Error('the hello-world did not start');
}

export interface Measured {
  requests: number;
  seconds: number;
  /** Bytes read, headers included. */
  bytes: number;
  /** Latency percentiles of the slices, in ms (the worst slice's p99). */
  p50: number[];
  p99: number[];
  /** The server process's CPU time (user and system), in ms, where the system tells it (Linux). */
  cpuMs: number;
}

const emptyMeasure = (): Measured => ({ requests: 0, seconds: 0, bytes: 0, p50: [], p99: [], cpuMs: 0 });

/** A process's CPU time so far in ms (Linux /proc; 0 elsewhere). Unlike requests a second, it does not drift with the
 * time the machine's host takes away, so it is the steadier figure of what one answer costs the server. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** One slice of load on one URL, added to `into`; refuses any non-2xx answer. Answers the slice's requests a second. */
async function slice(server: Server, seconds: number, into: Measured = emptyMeasure()): Promise<number> {
  const { url, headers = {} } = server;
  const cpuBefore = cpuMs(server.pid);
  const result = await autocannon({ url, headers, connections: LOAD.connections, duration: seconds });
  into.cpuMs += cpuMs(server.pid) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  into.requests += result.requests.total;
  into.seconds += seconds;
  into.bytes += result.throughput.total;
  into.p50.push(result.latency.p50);
  into.p99.push(result.latency.p99);
  return result.requests.total / seconds;
}

export interface Server {
  url: string;
  headers?: Record<string, string>;
  /** The serving process, for its CPU time. */
  pid?: number;
  /** How the printed line names it as the reference ("the hello-world's" when not given). */
  name?: string;
}

export interface Comparison extends Server {
  label: string;
  /** The least ratio of ours to the reference that meets the target (none for a figure printed for comparison). */
  target?: number;
}

const perSecond = (measured: Measured) => measured.requests / measured.seconds;
const cpuPerAnswer = (measured: Measured) =>
  measured.cpuMs > 0 ? `, ${((measured.cpuMs * 1000) / measured.requests).toFixed(1)} µs of CPU an answer` : '';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Measures each comparison in slices taken in turn with the reference's (after a warm-up of both) and prints, for each:
 * both figures, bytes an answer, and the ratio of the totals with the lowest and highest of the slices' own ratios.
 * Answers the ratios.
 */
export async function sideBySide(referenceServer: Server, comparisons: Comparison[]): Promise<number[]> {
  const rounds = Math.max(1, Math.round(LOAD.seconds / LOAD.sliceSeconds / 2));
  console.log(
    `side by side: ${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up each, then ${rounds * 2} slices ` +
      `of ${LOAD.sliceSeconds} s taken in turn (${rounds * LOAD.sliceSeconds} s for each server); each server in its ` +
      'own process, the load generator in a third',
  );
  // The load generator's own first seconds are slow: a throwaway slice on the reference before anything is measured.
  await slice(referenceServer, LOAD.warmupSeconds);
  const ratios: number[] = [];
  for (const comparison of comparisons) {
    await slice(comparison, LOAD.warmupSeconds);
    await slice(referenceServer, LOAD.warmupSeconds);
    const ours = emptyMeasure();
    const reference = emptyMeasure();
    const sliceRatios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Reference first on even rounds, ours first on odd ones: neither always follows the other.
      const first = round % 2 === 0;
      const referenceRate = first ? await slice(referenceServer, LOAD.sliceSeconds, reference) : 0;
      const ourRate = await slice(comparison, LOAD.sliceSeconds, ours);
      const otherRate = first ? referenceRate : await slice(referenceServer, LOAD.sliceSeconds, reference);
      sliceRatios.push(ourRate / otherRate);
    }
    const ratio = perSecond(ours) / perSecond(reference);
    ratios.push(ratio);
    console.log(
      `${comparison.label}: ${perSecond(ours).toFixed(0)} req/s (p50 ${median(ours.p50)} ms, p99 up to ` +
        `${Math.max(...ours.p99)} ms, ${(ours.bytes / ours.requests).toFixed(0)} bytes an answer${cpuPerAnswer(ours)}) ` +
        `against ${referenceServer.name ?? "the hello-world's"} ${perSecond(reference).toFixed(0)} (${(reference.bytes / reference.requests).toFixed(0)} ` +
        `bytes an answer${cpuPerAnswer(reference)}): ratio ${ratio.toFixed(2)}, slices ${Math.min(...sliceRatios).toFixed(2)}–` +
        `${Math.max(...sliceRatios).toFixed(2)}` +
        (comparison.target === undefined
          ? ''
          : ` (target at least ${comparison.target.toFixed(2)}${ratio >= comparison.target ? ', met' : ', NOT met'})`),
    );
  }
  return ratios;
}
