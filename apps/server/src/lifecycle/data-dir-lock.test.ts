import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { groupAlive, pidOfLine, repoRoot, type Service, startService, tempDir } from '../test/service.ts';

// One owner per embedded database, as processes: a second server, a job runner or a gateway on a DATA_DIR in use exits
// 1 at once with one sentence naming DATA_DIR and the process that holds it, and the first keeps serving; the lock of a
// process killed with -9 is taken over. The folder itself is created when missing.
const main = path.join(repoRoot, 'apps/server/src/main.ts');
const jobs = path.join(repoRoot, 'apps/server/src/jobs.ts');
const gateway = path.join(repoRoot, 'apps/server/src/gateway/main.ts');

const services: Service[] = [];
const data = tempDir('storefront-lock-');
const dataDir = path.join(data.dir, 'nested', 'data');

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.kill()));
});
afterAll(() => data.cleanup());

function run(file: string, args: string[] = []) {
  const service = startService(process.execPath, [file, ...args], {
    cwd: data.dir,
    env: { NODE_ENV: 'test', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', GATEWAY_PORT: '0', LOG_LEVEL: 'info' },
  });
  services.push(service);
  return service;
}

async function healthy(service: Service): Promise<number> {
  const line =
    service
      .output()
      .split('\n')
      .find((entry) => entry.includes('ready at')) ?? '';
  const port = Number(/"port":(\d+)/.exec(line)?.[1]);
  return (await fetch(`http://127.0.0.1:${port}/api/health`)).status;
}

describe('one owner of the embedded data', () => {
  it('refuses a second server, the job runner and a gateway on a DATA_DIR in use; takes over a dead owner', async () => {
    const first = run(main);
    await first.waitFor(/ready at/, 90_000);
    const owner = pidOfLine(first.output(), /ready at/);
    expect(first.output()).toContain(`(embedded PGlite, data in ${dataDir})`);

    for (const [file, args, hint] of [
      [main, [], 'a second server needs its own DATA_DIR'],
      [jobs, ['--once'], 'the server runs the periodic job itself'],
      [gateway, [], 'the server runs the gateway itself'],
    ] as const) {
      // It exits on its own, having said one line and opened nothing (no waiting on the lock, no start line).
      const second = run(file, [...args]);
      expect(await second.exited).toBe(1);
      const refusal = second.output().trim();
      expect(refusal).toMatch(
        new RegExp(`^DATA_DIR ${dataDir} is in use by process ${owner} \\(node [^)]*main\\.ts, since [^)]+\\): `),
      );
      expect(refusal).toContain(hint);
      expect(refusal.split('\n')).toHaveLength(1);
      expect(await healthy(first)).toBe(200);
    }

    // kill -9 leaves the lock behind; the next server finds its owner gone and takes it over at once.
    await first.kill();
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(true);
    const next = run(main);
    await next.waitFor(/ready at/, 60_000);
    expect(await healthy(next)).toBe(200);
    next.signal('SIGTERM');
    expect(await next.exited).toBe(0);
    expect(groupAlive(next.child.pid ?? 0)).toBe(false);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);

    // Free again: the job runner may use it (a server is not running).
    const once = run(jobs, ['--once']);
    expect(await once.exited, once.output()).toBe(0);
  }, 180_000);
});
