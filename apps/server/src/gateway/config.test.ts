import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { envSchema } from '../config-schema.ts';
import { refusals } from '../test/config-refusals.ts';
import { repoRoot } from '../test/service.ts';
import { loadGatewayConfig } from './config.ts';

/** Every variable a gateway on its own reads; the rest of the shop's settings it never looks at. */
const READ = [
  'NODE_ENV',
  'HOST',
  'PORT',
  'APP_URL',
  'LOG_LEVEL',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'MIGRATE_ON_START',
  'DATA_DIR',
  'SHUTDOWN_TIMEOUT_S',
  'GATEWAY_PORT',
  'GATEWAY_HOST',
  'GATEWAY_ALLOW_PRIVATE',
  'GATEWAY_FLUSH_MS',
  'GATEWAY_CACHE_MS',
  'GATEWAY_SLICE_MB',
  'GATEWAY_AUTH_FAILURES_PER_IP',
  'GATEWAY_MAX_CONNECTIONS_PER_IP',
  'GATEWAY_PROXY_PROTOCOL',
  'USAGE_DOMAINS',
  'RESIDENTIAL_UPSTREAM_URL',
  'RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE',
  'REDIS_URL',
  'REDIS_KEY_PREFIX',
  'METRICS_HOST',
  'METRICS_PORT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_SERVICE_NAME',
];

const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://gateway@db.example/shop' };

describe("the standalone gateway's own configuration", () => {
  it('has the defaults docs/configuration.md gives', () => {
    expect(loadGatewayConfig({})).toEqual({
      logLevel: 'info',
      database: { kind: 'pglite', dataDir: path.resolve('data/pglite'), chosenBy: 'DATA_DIR' },
      migrateOnStart: true,
      shutdown: { timeoutSeconds: 10 },
      metrics: { host: '127.0.0.1', port: 9464 },
      gateway: {
        host: '127.0.0.1',
        port: 8080,
        allowPrivateTargets: false,
        flushMs: 2000,
        cacheMs: 5000,
        sliceKb: 16 * 1024,
        authFailures: { perIp: 20, windowMs: 600_000, redis: undefined },
        maxConnectionsPerIp: 500,
        proxyProtocol: false,
        usageDomains: true,
        upstream: undefined,
        purchaseUrl: 'http://localhost:3000/dashboard/purchase',
      },
    });
    expect(loadGatewayConfig(production).database).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://gateway@db.example/shop',
      poolSize: 10,
      connectTimeoutMs: 10_000,
      statementTimeoutMs: 30_000,
    });
  });

  it('starts on PostgreSQL in production without AUTH_SECRET, SMTP_URL or Stripe keys, which the server needs', () => {
    expect(loadGatewayConfig(production).database.kind).toBe('postgres');
    expect(refusals(() => loadConfig(production))).toEqual([
      'AUTH_SECRET is required with PostgreSQL, so that every server instance signs sessions alike.',
      expect.stringMatching(/^STRIPE_SECRET_KEY is required in production/),
      expect.stringMatching(/^SMTP_URL is required in production/),
    ]);
  });

  it("reads only its own variables: the shop's other settings, even bad ones, are neither read nor refused", () => {
    const asked = new Set<string>();
    const env = new Proxy(
      {
        ...production,
        STRIPE_SECRET_KEY: 'not a key',
        SMTP_URL: 'mail.example.com',
        AUTH_SECRET: 'short',
        GOOGLE_CLIENT_ID: 'only half of a pair',
        PRICE_RESIDENTIAL_PROXIES: '-1',
        SHUTDOWN_DRAIN_MS: 'soon',
        GATEWAY_ENABLED: 'maybe',
        GATEWAY_PROXY_PROTOCOL: 'true',
      } as NodeJS.ProcessEnv,
      {
        get(target, name) {
          if (typeof name === 'string') asked.add(name);
          return Reflect.get(target, name);
        },
      },
    );
    expect(loadGatewayConfig(env).gateway.proxyProtocol).toBe(true);
    expect([...asked].sort()).toEqual([...READ].sort());
    // Each is a setting of the shop's table (docs/configuration.md's and .env.example's, see config-docs.test.ts).
    expect(READ.filter((name) => !(name in envSchema.shape))).toEqual([]);
  });

  it('refuses a bad value in one sentence naming the variable, what it accepts and what it got', () => {
    expect(() => loadGatewayConfig({ ...production, GATEWAY_PROXY_PROTOCOL: 'maybe' })).toThrow(
      'The configuration was refused: GATEWAY_PROXY_PROTOCOL must be true or false (got "maybe").',
    );
    expect(refusals(() => loadGatewayConfig({ DATABASE_POOL_SIZE: '0' }))).toEqual([
      'DATABASE_POOL_SIZE must be a whole number from 1 to 1000 (got "0").',
    ]);
    expect(refusals(() => loadGatewayConfig({ GATEWAY_PORT: '80.5' }))).toEqual([
      'GATEWAY_PORT must be a whole number from 0 to 65535 (0 picks a free port) (got "80.5").',
    ]);
    expect(refusals(() => loadGatewayConfig({ METRICS_PORT: 'none' }))).toEqual([
      'METRICS_PORT must be a whole number from 0 to 65535, 0 to turn the metrics listener off (got "none").',
    ]);
    expect(refusals(() => loadGatewayConfig({ LOG_LEVEL: 'loud', GATEWAY_HOST: '  ' }))).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").',
      'GATEWAY_HOST must be an address to listen on, such as 0.0.0.0 (got "  ").',
    ]);
    expect(refusals(() => loadGatewayConfig({ RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE: '{user}-{country}' }))).toEqual([
      'RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE must be a template using only the placeholders {username}, {country}, ' +
        '{COUNTRY}, {session}, {duration}, {hard} and {type} (got "{user}-{country}").',
    ]);
    // A password in a URL is never repeated.
    expect(refusals(() => loadGatewayConfig({ DATABASE_URL: 'mysql://admin:hunter2@db.example.com/shop' }))).toEqual([
      'DATABASE_URL must be a postgres:// URL, pglite:<directory> or memory:// (got "mysql://admin:***@db.example.com/shop").',
    ]);
  });

  it('stops at a mistyped variable in production, as the shop does, and leaves it to a warning elsewhere', () => {
    expect(
      refusals(() => loadGatewayConfig({ ...production, GATEWAY_PROT: '9000', DATABSE_URL: 'memory://' })),
    ).toEqual([
      'GATEWAY_PROT is not a setting of the shop: did you mean GATEWAY_PORT?',
      'DATABSE_URL is not a setting of the shop: did you mean DATABASE_URL?',
    ]);
    expect(loadGatewayConfig({ NODE_ENV: 'development', GATEWAY_PROT: '9000' }).gateway.port).toBe(8080);
    // A bad value and a mistyped name are refused together, the name after the value.
    expect(refusals(() => loadGatewayConfig({ ...production, GATEWAY_PORT: 'x', GATEWAY_PROT: '9000' }))).toEqual([
      'GATEWAY_PORT must be a whole number from 0 to 65535 (0 picks a free port) (got "x").',
      'GATEWAY_PROT is not a setting of the shop: did you mean GATEWAY_PORT?',
    ]);
  });

  it('reads METRICS_HOST and METRICS_PORT: its metrics and health checks listen there, or nowhere with 0', () => {
    expect(loadGatewayConfig({ METRICS_HOST: '0.0.0.0', METRICS_PORT: '9470' }).metrics).toEqual({
      host: '0.0.0.0',
      port: 9470,
    });
    expect(loadGatewayConfig({ METRICS_PORT: '0' }).metrics).toBeUndefined();
  });
});

describe('npm run gateway', () => {
  it("refuses a bad value with the sentence and exit 1, without loading the shop's configuration", () => {
    // Every static import of the gateway's entry is loaded before it reads its settings: this sees the whole graph
    // that a gateway on PostgreSQL loads before it opens its database. It reads its part of the shop's schema
    // (config-schema.ts), never the shop's configuration (config.ts).
    const hook = [
      "import { registerHooks } from 'node:module';",
      'registerHooks({ resolve(specifier, context, next) {',
      '  const resolved = next(specifier, context);',
      "  if (/\\/apps\\/server\\/src\\/config\\.ts$/.test(resolved.url)) console.error('loaded', resolved.url);",
      '  return resolved;',
      '} });',
    ].join('\n');
    // From an empty folder: a developer's own `.env` in the checkout would otherwise be read as well.
    const folder = mkdtempSync(path.join(os.tmpdir(), 'gateway-config-'));
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(hook)}`,
        path.join(repoRoot, 'apps/server/src/gateway/main.ts'),
      ],
      {
        cwd: folder,
        env: { PATH: process.env.PATH, GATEWAY_FLUSH_MS: '50' },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    rmSync(folder, { recursive: true, force: true });
    expect(run.stderr.trim()).toBe(
      'The configuration was refused: GATEWAY_FLUSH_MS must be a whole number from 100 to 60000 milliseconds (got "50").',
    );
    expect(run.status).toBe(1);
  }, 30_000);
});
