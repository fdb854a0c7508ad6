// `node bench/release.ts`: the release's figures. Packages it (npm run package into a temporary folder), then prints its
// size on disk and gzipped, and, on PostgreSQL (BENCH_DATABASE_URL; its own database, created and dropped), the time from
// `node .` to the first answer of /api/health (migrations already applied, as after `node . migrate`) and the resident
// memory of an idle instance 5 s after it answered, over BENCH_RUNS starts (5). The same for the server run from the
// sources (`node apps/server/src/main.ts`), for comparison.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBenchDatabase } from './bench-database.ts';
import { spawnOwned } from './start-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_RUNS ?? 5);
const work = mkdtempSync(path.join(os.tmpdir(), 'storefront-release-bench-'));
const release = path.join(work, 'release');
const database = await createBenchDatabase();

try {
  execFileSync(process.execPath, ['scripts/package.ts', '--out', release], { cwd: root, stdio: 'inherit' });
  const onDisk = Number(execFileSync('du', ['-sk', release]).toString().split('\t')[0]) * 1024;
  execFileSync('tar', ['-czf', path.join(work, 'release.tar.gz'), '-C', work, 'release']);
  const gzipped = Number(execFileSync('stat', ['-c', '%s', path.join(work, 'release.tar.gz')]).toString());
  const env = {
    PATH: path.dirname(process.execPath),
    DATABASE_URL: database.url,
    AUTH_SECRET: randomBytes(32).toString('base64'),
    LOG_EMAILS: 'true',
    PAYMENTS_SANDBOX: 'true',
    HOST: '127.0.0.1',
    PORT: '0',
    GATEWAY_PORT: '0',
    LOG_LEVEL: 'info',
  };
  execFileSync(process.execPath, ['.', 'migrate'], { cwd: release, env, stdio: 'ignore' });

  const measure = async (args: string[], cwd: string) => {
    const starts: number[] = [];
    const memory: number[] = [];
    for (let run = 0; run < runs; run++) {
      const startedAt = performance.now();
      const child = spawnOwned(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      child.stdout?.on('data', (data: Buffer) => {
        output += data.toString();
      });
      let port: number | undefined;
      while (port === undefined) {
        port = Number(/"port":(\d+),"database"/.exec(output)?.[1]) || undefined;
        if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
        await sleep(5);
      }
      // The port is logged once it listens; the first answer is the figure.
      while (
        !(await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        ))
      )
        await sleep(5);
      starts.push(performance.now() - startedAt);
      await sleep(5000);
      const rss = Number(readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1]) * 1024;
      memory.push(rss);
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    return {
      start: `${(median(starts) / 1000).toFixed(2)} s (${(Math.min(...starts) / 1000).toFixed(2)}–${(Math.max(...starts) / 1000).toFixed(2)})`,
      memory: `${(median(memory) / 2 ** 20).toFixed(0)} MB (${(Math.min(...memory) / 2 ** 20).toFixed(0)}–${(Math.max(...memory) / 2 ** 20).toFixed(0)})`,
    };
  };
  const released = await measure(['.'], release);
  const sources = await measure([path.join(root, 'apps/server/src/main.ts')], root);
  console.log(`\nRelease: ${(onDisk / 2 ** 20).toFixed(1)} MB on disk, ${(gzipped / 2 ** 20).toFixed(1)} MB gzipped`);
  console.log(`On PostgreSQL, median of ${runs} starts (range):`);
  console.log(`  release  first answer ${released.start}, idle memory ${released.memory}`);
  console.log(`  sources  first answer ${sources.start}, idle memory ${sources.memory}`);
} finally {
  await database.drop();
  rmSync(work, { recursive: true, force: true });
}
