import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compose, dockerRunStage } from '../test/deploy-files.ts';
import { startOtlpReceiver } from '../test/otlp-receiver.ts';
import { freePort } from '../test/processes.ts';
import { repoRoot, type Service, startService, tempDir } from '../test/service.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

// `npm run package` writes a release that runs from any folder on a bare Node 24 (no node_modules, no npm, no
// TypeScript), the way the container's CMD runs it: `node .` in the image's WORKDIR with the image's ENV and nothing
// else. The Dockerfile and compose.yaml point at what the package writes. On the embedded database and on PostgreSQL.
const onPostgres = process.env.TEST_DB === 'postgres';
const node = path.join(repoRoot, 'node_modules/node/bin/node');
const work = tempDir('storefront-release-');
const release = path.join(work.dir, 'release');
const services: Service[] = [];
let t: TestApp | undefined;

const docker = dockerRunStage();

/** Runs the release as the image does: `docker.cmd` in its WORKDIR, with the image's ENV and a bare Node on PATH. */
function runAsImage(args: string[], env: Record<string, string>, dataDir: string) {
  const [command, ...rest] = docker.cmd;
  expect(command).toBe('node');
  const service = startService(node, [...rest, ...args], {
    cwd: release,
    env: {
      ...docker.env,
      // The image's volume and ports, here a fresh folder and free ports.
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      GATEWAY_HOST: '127.0.0.1',
      PORT: '0',
      GATEWAY_PORT: '0',
      ...env,
      PATH: path.dirname(node),
    },
  });
  services.push(service);
  return service;
}

function databaseEnv(): Record<string, string> {
  // A production release takes the sandbox and the demo stock only when told, on any database.
  if (!t || t.config.database.kind !== 'postgres') return { PAYMENTS_SANDBOX: 'true', SEED_DEMO: 'true' };
  return {
    DATABASE_URL: t.config.database.connectionString,
    AUTH_SECRET: 'r'.repeat(32),
    LOG_EMAILS: 'true',
    PAYMENTS_SANDBOX: 'true',
  };
}

beforeAll(async () => {
  if (onPostgres) t = await createTestApp();
  execFileSync(process.execPath, ['scripts/package.ts', '--out', release], { cwd: repoRoot, stdio: 'pipe' });
}, 240_000);

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.kill()));
});

afterAll(async () => {
  await t?.close();
  work.cleanup();
});

describe('the release', () => {
  it('is self-contained: bundled JavaScript, the web app, migrations and PGlite files, no node_modules or TypeScript', () => {
    const manifest = JSON.parse(readFileSync(path.join(release, 'package.json'), 'utf8'));
    const rootVersion = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version;
    expect(manifest).toMatchObject({ version: rootVersion, type: 'module', main: 'app/cli.js' });
    expect(manifest.commit).toMatch(/^[0-9a-f]{12}(-modified)?$/);
    for (const file of [
      'app/cli.js',
      'app/pglite.wasm',
      'app/pglite.data',
      'web/dist/index.html',
      'web/dist-ssr/entry-server.js',
      'migrations/meta/_journal.json',
      'static/swagger-ui-bundle.js',
    ]) {
      expect(existsSync(path.join(release, file)), file).toBe(true);
    }
    const all = (dir: string): string[] =>
      readdirSync(dir).flatMap((entry) => {
        const full = path.join(dir, entry);
        return statSync(full).isDirectory() ? [full, ...all(full)] : [full];
      });
    const files = all(release);
    expect(files.filter((file) => file.includes('node_modules'))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.ts'))).toEqual([]);
  });

  it('runs with node . as the image does: landing page, health, version and commit in the start line', async () => {
    const data = tempDir('storefront-release-data-');
    try {
      const server = runAsImage([], databaseEnv(), data.dir);
      const ready = await server.waitFor(/storefront (\S+) \((\S+)\) ready at .*"/, 60_000);
      const manifest = JSON.parse(readFileSync(path.join(release, 'package.json'), 'utf8'));
      expect(ready[1]).toBe(manifest.version);
      expect(ready[2]).toBe(manifest.commit);
      const line =
        server
          .output()
          .split('\n')
          .find((entry) => entry.includes('ready at')) ?? '';
      const port = Number(/"port":(\d+)/.exec(line)?.[1]);
      const landing = await fetch(`http://127.0.0.1:${port}/`);
      expect(landing.status).toBe(200);
      expect(await landing.text()).toContain('Proxy Storefront');
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      const readiness = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
      expect(await readiness.json()).toMatchObject({ status: 'ready', version: manifest.version });
      expect((await fetch(`http://127.0.0.1:${port}/api/docs/static/swagger-ui.css`)).status).toBe(200);
      // The image's health check, run as the image runs it.
      const healthcheck = JSON.parse(docker.healthcheck ?? '[]') as string[];
      expect(healthcheck[0]).toBe('node');
      expect(() =>
        execFileSync(node, healthcheck.slice(1), { env: { PORT: String(port), PATH: path.dirname(node) } }),
      ).not.toThrow();

      if (onPostgres) {
        // The job runner and a gateway share PostgreSQL with the running server.
        const jobs = runAsImage(['jobs', '--once'], databaseEnv(), data.dir);
        expect(await jobs.exited, jobs.output()).toBe(0);
        const metricsPort = String(await freePort());
        const gateway = runAsImage(['gateway'], { ...databaseEnv(), METRICS_PORT: metricsPort }, data.dir);
        await gateway.waitFor(/residential gateway listening on port \d+/);
        // compose.yaml's health check of the gateway, run as compose runs it in the image: its readiness.
        const gatewayCheck = (compose().services.gateway?.healthcheck as { test: string[] }).test;
        expect(gatewayCheck.slice(0, 2)).toEqual(['CMD', 'node']);
        expect(gatewayCheck.join(' ')).toContain('/health/ready');
        await expect
          .poll(() => {
            try {
              execFileSync(node, gatewayCheck.slice(2), {
                env: { METRICS_PORT: metricsPort, PATH: path.dirname(node) },
              });
              return 'healthy';
            } catch {
              return 'unhealthy';
            }
          })
          .toBe('healthy');
        gateway.signal('SIGTERM');
        expect(await gateway.exited).toBe(0);
      }
      server.signal('SIGTERM');
      expect(await server.exited).toBe(0);

      const migrate = runAsImage(['migrate'], databaseEnv(), data.dir);
      expect(await migrate.exited, migrate.output()).toBe(0);
      expect(migrate.output()).toContain('migrations applied');
      const unknown = runAsImage(['nonsense'], databaseEnv(), data.dir);
      expect(await unknown.exited).toBe(2);
      expect(unknown.output()).toContain('Unknown command "nonsense"');
    } finally {
      data.cleanup();
    }
  }, 120_000);

  it('exports traces with OTEL_EXPORTER_OTLP_ENDPOINT, and loads no part of the OpenTelemetry SDK without it', async () => {
    // The SDK is bundled in a chunk of its own (the dynamic import in lib/tracing.ts), loaded only when asked for.
    const sdkChunk = /\/app\/tracing-sdk-[^/]*\.js$/;
    expect(readdirSync(path.join(release, 'app')).some((file) => sdkChunk.test(`/app/${file}`))).toBe(true);
    const receiver = await startOtlpReceiver();
    const data = tempDir('storefront-release-traces-');
    try {
      for (const traced of [true, false]) {
        const loads = path.join(data.dir, `loads-${traced}`);
        const server = runAsImage(
          [],
          {
            ...databaseEnv(),
            NODE_OPTIONS: `--import=${path.join(repoRoot, 'apps/server/src/test/report-loads.ts')}`,
            REPORT_LOADS_TO: loads,
            ...(traced && {
              OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
              OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
              OTEL_BSP_SCHEDULE_DELAY: '100',
            }),
          },
          data.dir,
        );
        const port = Number((await server.waitFor(/"port":(\d+).*ready at/, 60_000))[1]);
        expect((await fetch(`http://127.0.0.1:${port}/api/pricing`)).status, server.output()).toBe(200);
        server.signal('SIGTERM');
        expect(await server.exited).toBe(0);
        const loaded = readFileSync(loads, 'utf8').split('\n');
        expect(
          loaded.some((line) => sdkChunk.test(line.split('\t')[0] ?? '')),
          `SDK loaded, traced: ${traced}`,
        ).toBe(traced);
        if (traced) {
          // The stop exported the last spans: the request's is there.
          const span = receiver
            .spans()
            .find((entry) => entry.kind === 2 && entry.attributes['http.route'] === '/api/pricing');
          expect(span).toMatchObject({ service: 'storefront', name: 'GET /api/pricing', kind: 2 });
          if (onPostgres) {
            const inTrace = receiver.spans().filter((entry) => entry.traceId === span?.traceId);
            expect(inTrace.some((entry) => entry.scope === '@opentelemetry/instrumentation-pg')).toBe(true);
          }
        }
      }
      if (onPostgres) {
        // A gateway on its own, bundled: a proxied request's credentials looked up in PostgreSQL, in the request's trace.
        const gateway = runAsImage(
          ['gateway'],
          {
            ...databaseEnv(),
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
            OTEL_BSP_SCHEDULE_DELAY: '100',
          },
          data.dir,
        );
        const port = Number((await gateway.waitFor(/residential gateway listening on port (\d+)/))[1]);
        const status = await new Promise<number | undefined>((resolve, reject) => {
          const authorization = `Basic ${Buffer.from('res-nobody:not-a-password').toString('base64')}`;
          get(
            {
              host: '127.0.0.1',
              port,
              path: 'http://example.com/',
              headers: { host: 'example.com', 'proxy-authorization': authorization },
            },
            (response) => {
              response.resume();
              response.on('end', () => resolve(response.statusCode));
            },
          ).on('error', reject);
        });
        expect(status).toBe(407);
        gateway.signal('SIGTERM');
        expect(await gateway.exited).toBe(0);
        const request = receiver.spans().find((entry) => entry.service === 'storefront-gateway' && entry.kind === 2);
        expect(request).toBeDefined();
        const queries = receiver
          .spans()
          .filter((entry) => entry.traceId === request?.traceId && entry.name.startsWith('pg.query'));
        expect(queries.length).toBeGreaterThan(0);
      }
    } finally {
      await receiver.close();
      data.cleanup();
    }
  }, 120_000);

  // The machine's own node, when it is older than the release's: the entry refuses it before loading anything.
  const systemNode = '/usr/bin/node';
  const systemMajor = existsSync(systemNode)
    ? Number(execFileSync(systemNode, ['-p', 'process.versions.node']).toString().split('.')[0])
    : undefined;
  it.runIf(systemMajor !== undefined && systemMajor < 24)('stops at once on an older Node, naming both', async () => {
    const found = execFileSync(systemNode, ['-p', 'process.versions.node']).toString().trim();
    for (const args of [[], ['jobs', '--once'], ['gateway'], ['migrate']]) {
      const old = startService(systemNode, ['.', ...args], {
        cwd: release,
        env: { HOST: '127.0.0.1', PORT: '0', GATEWAY_PORT: '0', DATA_DIR: path.join(work.dir, 'old-node') },
      });
      services.push(old);
      expect(await old.exited, old.output()).toBe(1);
      expect(old.output()).toBe(
        `This release needs Node.js 24 or newer (found ${found}): install Node.js 24 and start it with that node.\n`,
      );
    }
    expect(existsSync(path.join(work.dir, 'old-node')), 'nothing was opened').toBe(false);
  });

  it('is what the Dockerfile and compose.yaml run', () => {
    // Built by `npm run package` in the build stage, copied whole into the run stage's WORKDIR, started with node.
    expect(docker.buildPackage).toBe(true);
    expect(docker.copies).toEqual([{ from: `${docker.buildWorkdir}/release/`, to: `${docker.workdir}/` }]);
    expect(docker.cmd).toEqual(['node', '.']);
    expect(docker.user).toBe('node');
    expect(docker.env.DATA_DIR).toBeDefined();
    expect(docker.healthcheck).toContain('/api/health/ready');
    const ignored = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['.git', '**/node_modules', 'release', '.env']) expect(ignored).toContain(entry);

    const { shop, gateway, postgres, redis } = compose().services;
    expect(shop?.build).toMatchObject({ context: '.' });
    expect(gateway?.image).toBe(shop?.image);
    expect(shop?.command).toBeUndefined(); // the image's CMD: node .
    expect(gateway?.command).toEqual(['node', '.', 'gateway']);
    expect(postgres?.image).toBe('postgres:17');
    expect(redis?.image).toBe('redis:7');
    for (const [name, service] of Object.entries(compose().services)) {
      // The shops (shop, and shop-b for upgrades) are checked by the image's HEALTHCHECK.
      if (!name.startsWith('shop')) expect(service.healthcheck, name).toBeDefined();
      expect(service.env_file ?? 'none', name).toEqual(service.image === shop?.image ? '.env' : 'none');
    }
    expect(Object.keys(compose().services).filter((name) => compose().services[name]?.image === shop?.image)).toEqual([
      'shop',
      'shop-b',
      'gateway',
    ]);
    expect(shop?.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(gateway?.depends_on).toMatchObject({ shop: { condition: 'service_healthy' } });
    expect(Object.keys(compose().volumes ?? {})).toEqual(['postgres-data', 'redis-data']);
  });
});
