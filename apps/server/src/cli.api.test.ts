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

describe('node . --help and mistyped commands', () => {
  it.each([['--help'], ['-h'], ['help']])('node . %s lists the commands and exits 0', async (flag) => {
    const help = run([flag]);
    expect(await help.exited, help.output()).toBe(0);
    for (const command of ['serve', 'migrate', 'jobs [--once]', 'gateway']) {
      expect(help.output()).toMatch(new RegExp(`^  ${command.replace(/[[\]]/g, '\\$&')} +\\S`, 'm'));
    }
    expect(help.output()).not.toContain('"level"');
  }, 20_000);

  it.each([
    [['serv'], 'Unknown command "serv": use node . [serve | migrate | jobs [--once] | gateway]'],
    [['--port', '80'], 'Unknown option "--port": settings are environment variables'],
    [['jobs', '--onc'], 'Unknown option "--onc" for jobs: it takes only --once'],
    [['gateway', 'now'], 'Unknown argument "now" for gateway: it takes no options'],
  ])(
    'node . %j stops with a sentence and exit 2, starting nothing',
    async (args, sentence) => {
      const refused = run(args, { DATABASE_URL: 'memory://', PORT: '0', GATEWAY_PORT: '0' });
      expect(await refused.exited, refused.output()).toBe(2);
      expect(refused.output()).toContain(sentence);
      expect(refused.output().trim().split('\n')).toHaveLength(1);
    },
    20_000,
  );
});
