// Fair comparisons: the server under test and the reference each in its own process, autocannon in this one, the same
// connections, duration and warm-up for both, measured in the same run. This machine's speed drifts within a run (up
// to 40 % over a minute), so each of our figures is measured between two of the reference's, and compared with their
// mean: a figure taken on a fast or a slow minute is compared with the reference on that same minute.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
export const LOAD = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  warmupSeconds: 2,
};

/** Starts the bare Fastify hello-world in its own process and waits until it answers. */
export async function startHelloWorld(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(root, 'bench/hello-server.ts'), String(port)], { stdio: 'inherit' });
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
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Bytes read per answer, headers included. */
  bytesPerAnswer: number;
}

/** Requests per second of one URL after a warm-up, with the given headers; refuses any non-2xx answer. */
export async function measure(url: string, headers: Record<string, string> = {}): Promise<Measured> {
  await autocannon({ url, headers, connections: LOAD.connections, duration: LOAD.warmupSeconds });
  const result = await autocannon({ url, headers, connections: LOAD.connections, duration: LOAD.seconds });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerAnswer: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
  };
}

export interface Comparison {
  label: string;
  url: string;
  headers?: Record<string, string>;
  /** The least ratio of ours to the reference that meets the target. */
  target: number;
}

/**
 * Measures each comparison between two measurements of the reference (reference, ours, reference, ours, …, reference)
 * and prints, for each: our figure, the reference's before and after it, and the ratio to their mean. Answers the ratios.
 */
export async function sideBySide(referenceUrl: string, comparisons: Comparison[]): Promise<number[]> {
  console.log(
    `side by side: ${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up, ${LOAD.seconds} s measured, ` +
      'each server in its own process, the load generator in a third; each figure between two of the reference',
  );
  let before = await measure(referenceUrl);
  const ratios: number[] = [];
  for (const comparison of comparisons) {
    const ours = await measure(comparison.url, comparison.headers);
    const after = await measure(referenceUrl);
    const reference = (before.requestsPerSecond + after.requestsPerSecond) / 2;
    const ratio = ours.requestsPerSecond / reference;
    ratios.push(ratio);
    console.log(
      `${comparison.label}: ${ours.requestsPerSecond.toFixed(0)} req/s (p50 ${ours.p50} ms, p99 ${ours.p99} ms, ` +
        `${ours.bytesPerAnswer.toFixed(0)} bytes an answer) against the hello-world's ` +
        `${before.requestsPerSecond.toFixed(0)} before and ${after.requestsPerSecond.toFixed(0)} after ` +
        `(${after.bytesPerAnswer.toFixed(0)} bytes an answer): ratio ${ratio.toFixed(2)} ` +
        `(target at least ${comparison.target.toFixed(2)}${ratio >= comparison.target ? ', met' : ', NOT met'})`,
    );
    before = after;
  }
  return ratios;
}
