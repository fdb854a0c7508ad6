// Fair comparisons: the server under test and the reference each in its own process, autocannon in this one, the same
// connections, duration and warm-up for both, measured in the same run.
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

/** Requests per second of one URL after a warm-up, with the given headers; refuses any non-2xx answer. */
export async function requestsPerSecond(url: string, headers: Record<string, string> = {}): Promise<number> {
  await autocannon({ url, headers, connections: LOAD.connections, duration: LOAD.warmupSeconds });
  const result = await autocannon({ url, headers, connections: LOAD.connections, duration: LOAD.seconds });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return result.requests.average;
}

/** Prints one comparison: ours, the reference, and the ratio against its target. */
export function report(label: string, ours: number, reference: number, target: number): void {
  const ratio = ours / reference;
  console.log(
    `${label}: ${ours.toFixed(0)} req/s against the hello-world's ${reference.toFixed(0)} req/s: ratio ${ratio.toFixed(2)} ` +
      `(target at least ${target.toFixed(2)}${ratio >= target ? ', met' : ', NOT met'})`,
  );
}
