import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { repoRoot, type Service, startService, tempDir } from './test/service.ts';

// The release's entry as an operator runs it (`node . <command>`), from the source tree: Node 24 strips the types.
const cli = path.join(repoRoot, 'apps/server/src/cli.ts');
const node = path.join(repoRoot, 'node_modules/.bin/node');

const services: Service[] = [];
const data = tempDir('storefront-cli-');

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.kill()));
});
afterAll(() => data.cleanup());

function run(args: string[], env: Record<string, string> = {}) {
  const service = startService(node, [cli, ...args], {
    cwd: data.dir,
    env: { NODE_ENV: 'test', METRICS_PORT: '0', ...env },
  });
  services.push(service);
  return service;
}

describe('node . jobs and node . gateway', () => {
  it('jobs --once prints its report once', async () => {
    const jobs = run(['jobs', '--once'], { DATABASE_URL: 'memory://' });
    expect(await jobs.exited, jobs.output()).toBe(0);
    expect(jobs.output().match(/"abandonedRemoved":/g), jobs.output()).toHaveLength(1);
  }, 60_000);

  it('the gateway says its version, commit and ports when ready', async () => {
    const gateway = run(['gateway'], {
      DATA_DIR: path.join(data.dir, 'gateway'),
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: '0',
    });
    const [line] = await gateway.waitFor(/storefront gateway .* ready on .*\n/, 30_000);
    expect(line).toMatch(
      /storefront gateway \d+\.\d+\.\d+\S* \(\w+\) ready on 127\.0\.0\.1:[1-9]\d* \(no metrics listener\)/,
    );
    gateway.signal('SIGTERM');
    expect(await gateway.exited).toBe(0);
  }, 60_000);
});
