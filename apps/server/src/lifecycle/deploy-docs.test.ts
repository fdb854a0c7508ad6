import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readinessResponseSchema } from '@storefront/contract';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { loadGatewayConfig } from '../gateway/config.ts';
import { refusals } from '../test/config-refusals.ts';
import { dockerRunExamples, dockerRunStage, resolvedCompose } from '../test/deploy-files.ts';
import { repoRoot, tempDir } from '../test/service.ts';

// What an operator copies from the Dockerfile, compose.yaml and docs/operations.md, checked by running it the way
// Docker, compose and systemd would read it, without them.

const operations = readFileSync(path.join(repoRoot, 'docs/operations.md'), 'utf8');
const image = dockerRunStage();

/** The shop's demands of production on PostgreSQL, as an operator's .env holds them. */
const productionDotEnv = {
  AUTH_SECRET: 'a'.repeat(32),
  SMTP_URL: 'smtp://mail.example.com',
  MAIL_FROM: 'shop@example.com',
  STRIPE_SECRET_KEY: 'sk_live_abc',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc',
};

describe('the systemd unit in docs/operations.md', () => {
  const units = [...operations.matchAll(/```ini\n([\s\S]*?)```/g)]
    .map(([, text]) => text ?? '')
    .filter((text) => text.includes('[Service]'));

  /** Each section's settings, in order. */
  const sections = (unit: string) => {
    const found: Record<string, [string, string][]> = {};
    let current = '';
    for (const line of unit.split('\n')) {
      const header = /^\[(\w+)\]$/.exec(line);
      if (header) current = header[1] ?? '';
      const setting = /^(\w+)=(.*)$/.exec(line);
      if (setting) found[current] = [...(found[current] ?? []), [setting[1] ?? '', setting[2] ?? '']];
    }
    return found;
  };
  const values = (unit: string, section: string, key: string) =>
    (sections(unit)[section] ?? []).filter(([name]) => name === key).map(([, value]) => value);

  it('is there', () => {
    expect(units.length).toBeGreaterThan(0);
  });

  it('puts the start limits in [Unit], where systemd reads them', () => {
    for (const unit of units) {
      expect(values(unit, 'Unit', 'StartLimitIntervalSec')).toHaveLength(1);
      expect(values(unit, 'Unit', 'StartLimitBurst')).toHaveLength(1);
      expect((sections(unit).Service ?? []).filter(([name]) => name.startsWith('StartLimit'))).toEqual([]);
    }
  });

  it('lets Node read the interfaces (AF_NETLINK), and listens where a balancer on another machine reaches it', () => {
    for (const unit of units) {
      // Without it os.networkInterfaces() fails (error 97), and with it the gateway's check of every target.
      for (const families of values(unit, 'Service', 'RestrictAddressFamilies')) {
        expect(families.split(/\s+/)).toEqual(expect.arrayContaining(['AF_INET', 'AF_INET6', 'AF_UNIX', 'AF_NETLINK']));
      }
      const environment = values(unit, 'Service', 'Environment').join(' ').split(/\s+/);
      expect(environment).toEqual(expect.arrayContaining(['HOST=0.0.0.0', 'GATEWAY_HOST=0.0.0.0']));
    }
  });

  const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
  it('passes systemd-analyze verify without a warning', (context) => {
    if (analyze.status !== 0) context.skip('systemd-analyze is not installed here (Debian: apt-get install systemd)');
    const folder = tempDir('storefront-unit-');
    try {
      for (const unit of units) {
        // verify wants every ExecStart* program to exist; /usr/bin/node may not on this machine.
        const runnable = unit.replace(/^(Exec\w+=[-@:+!]*)(\/\S+)/gm, (line, setting: string, program: string) =>
          existsSync(program) ? line : `${setting}${process.execPath}`,
        );
        const file = path.join(folder.dir, 'storefront.service');
        writeFileSync(file, runnable);
        const run = spawnSync('systemd-analyze', ['verify', '--man=no', file], { encoding: 'utf8' });
        const said = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.includes(file));
        expect(said, 'what systemd-analyze says of the unit').toEqual([]);
        expect(run.status, run.stderr).toBe(0);
      }
    } finally {
      folder.cleanup();
    }
  });
});

describe('compose.yaml', () => {
  const operator = { APP_URL: 'https://shop.example.com', POSTGRES_PASSWORD: 'pass' };

  /** A container's environment: the image's ENV, then .env (env_file), then the service's environment. */
  function containers(env: Record<string, string>, dotEnv: Record<string, string> = productionDotEnv) {
    const { services } = resolvedCompose({ ...dotEnv, ...env });
    const of = (name: string) =>
      ({ ...image.env, ...dotEnv, ...services[name]?.environment }) as Record<string, string>;
    return { services, shop: of('shop'), shopB: of('shop-b'), gateway: of('gateway') };
  }

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('takes any database password: pg reads it from PGPASSWORD beside a URL without one', () => {
    const password = 'a/b+c=?#@%:x y';
    const { services, shop, gateway } = containers({ ...operator, POSTGRES_PASSWORD: password });
    expect(services.postgres?.environment?.POSTGRES_PASSWORD).toBe(password);
    for (const env of [shop, gateway]) {
      expect(refusals(() => (env === shop ? loadConfig(env) : loadGatewayConfig(env)))).toEqual([]);
      // What pg connects with, given the container's environment.
      vi.stubEnv('PGPASSWORD', env.PGPASSWORD);
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      expect(client.password).toBe(password);
      expect(client).toMatchObject({ host: 'postgres', port: 5432, user: 'storefront', database: 'storefront' });
    }
  });

  it('refuses to start without APP_URL, and serves the origin it names', () => {
    expect(() => containers({ POSTGRES_PASSWORD: 'pass' })).toThrow(/APP_URL.*https:\/\/shop\.example\.com/);
    expect(loadConfig(containers(operator).shop).site.origin).toBe('https://shop.example.com');
  });

  it('listens on, publishes and shows the same ports: PORT for the shop, GATEWAY_PORT for the gateway', () => {
    const choices: Record<string, string>[] = [{}, { PORT: '4000', GATEWAY_PORT: '9090', SHOP_B_PORT: '4001' }];
    for (const ports of choices) {
      const { services, shop, shopB, gateway } = containers({ ...operator, ...ports });
      const shopConfig = loadConfig(shop);
      const gatewayConfig = loadGatewayConfig(gateway).gateway;
      const published = (name: string) => (services[name]?.ports ?? []).map((entry) => entry.split(':').map(Number));
      expect(published('shop')).toEqual([[shopConfig.port, shopConfig.port]]);
      expect(published('shop-b')).toEqual([[Number(ports.SHOP_B_PORT ?? 3001), loadConfig(shopB).port]]);
      expect(published('gateway')).toEqual([[gatewayConfig.port, gatewayConfig.port]]);
      // Customers are shown the port the host publishes.
      expect(shopConfig.gatewayEndpoint).toBe(`shop.example.com:${gatewayConfig.port}`);
      expect(shopConfig.port).toBe(Number(ports.PORT ?? 3000));
      expect(gatewayConfig.port).toBe(Number(ports.GATEWAY_PORT ?? 8080));
    }
  });

  it('listens on every interface of the container, whatever .env says', () => {
    const dotEnv = { ...productionDotEnv, HOST: '127.0.0.1', GATEWAY_HOST: '127.0.0.1' };
    const { shop, gateway } = containers(operator, dotEnv);
    expect(loadConfig(shop).host).toBe('0.0.0.0');
    expect(loadConfig(shop).gateway.host).toBe('0.0.0.0');
    expect(loadGatewayConfig(gateway).gateway.host).toBe('0.0.0.0');
  });

  it('gives the gateway the Redis of the shop, so failed proxy authentications are counted once', () => {
    const { services, shop, gateway } = containers(operator);
    expect(loadConfig(shop).redis?.url).toBe('redis://redis:6379');
    expect(loadGatewayConfig(gateway).gateway.authFailures.redis?.url).toBe(loadConfig(shop).redis?.url);
    expect(services.gateway?.depends_on).toMatchObject({ redis: { condition: 'service_healthy' } });
  });

  it('holds a second shop for upgrades, started only with its profile, like the first', () => {
    const { services, shop, shopB } = containers(operator);
    expect(services['shop-b']?.profiles).toEqual(['two-shops']);
    expect(services.shop?.profiles).toBeUndefined();
    expect(shopB).toEqual(shop);
    expect(services['shop-b']?.depends_on).toEqual(services.shop?.depends_on);
  });
});

describe('a password in DATABASE_URL', () => {
  it('is refused by name, unread, when pg could not parse the URL, and said how to write it', () => {
    const [problem, ...others] = refusals(() =>
      loadConfig({ DATABASE_URL: 'postgres://storefront:s3/cr+t=@db.example.com:5432/storefront' }, 'migrate'),
    );
    expect(others).toEqual([]);
    expect(problem).toMatch(/^DATABASE_URL must be .*percent-encoded/);
    expect(problem).toContain('"postgres://storefront:***@db.example.com:5432/storefront"');
    expect(problem).not.toContain('s3');
  });

  it('is read when percent-encoded, and URLs pg reads stay accepted', () => {
    for (const url of [
      'postgres://storefront:s3%2Fcr+t=@db.example.com:5432/storefront',
      'postgres://storefront@/storefront?host=/var/run/postgresql',
      'postgresql://u:50%off@db.example.com/db',
      'postgres://u:p@[::1]:5432/db',
    ]) {
      expect(
        refusals(() => loadConfig({ DATABASE_URL: url }, 'migrate')),
        url,
      ).toEqual([]);
      expect(() => new pg.Client({ connectionString: url }), url).not.toThrow();
    }
  });
});

describe('the Dockerfile', () => {
  it('listens on every interface of the container and declares no volume (DATA_DIR is mounted when used)', () => {
    expect(image.env).toMatchObject({ HOST: '0.0.0.0', GATEWAY_HOST: '0.0.0.0', DATA_DIR: '/data' });
    expect(image.instructions).not.toContain('VOLUME');
  });

  // `-e NAME` alone passes the shell's value on: here, an operator's.
  const shell: Record<string, string> = { ...productionDotEnv, PGPASSWORD: 'pass' };
  const filled = (env: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value ?? shell[name] ?? `<${name} unset>`]));
  const examples = dockerRunExamples();
  const production = examples.find((run) => 'DATABASE_URL' in run.env);
  const trial = examples.find((run) => !('DATABASE_URL' in run.env));

  it('shows a production run: PostgreSQL, Stripe, APP_URL, no sandbox or demo stock', () => {
    expect(examples).toHaveLength(2);
    expect(production?.env).not.toHaveProperty('PAYMENTS_SANDBOX');
    expect(production?.env).not.toHaveProperty('SEED_DEMO');
    const config = loadConfig({ ...image.env, ...filled(production?.env ?? {}) });
    expect(config.database.kind).toBe('postgres');
    expect(config.payments.provider).toBe('stripe');
    expect(config.seedDemo).toBe(false);
    expect(config.site.origin).toBe(production?.env.APP_URL);
    expect(production?.ports.map((entry) => entry.split(':').at(-1))).toEqual([image.env.PORT, image.env.GATEWAY_PORT]);
  });

  it('shows a run to try it apart: the embedded database in a volume, sandbox payments and demo stock on purpose', () => {
    expect(trial?.env).toEqual({ PAYMENTS_SANDBOX: 'true', SEED_DEMO: 'true' });
    const config = loadConfig({ ...image.env, ...filled(trial?.env ?? {}) });
    expect(config.payments.provider).toBe('sandbox');
    expect(config.seedDemo).toBe(true);
    expect(config.database).toMatchObject({ kind: 'pglite', dataDir: path.join(image.env.DATA_DIR ?? '', 'pglite') });
    expect(trial?.volumes.map((volume) => volume.split(':')[1])).toEqual([image.env.DATA_DIR]);
  });
});

describe('the readiness answer, as the documentation shows it', () => {
  const documents = [
    'README.md',
    ...readdirSync(path.join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.md'))
      .map((file) => path.join('docs', file)),
  ];

  it("is the shop's: the statuses GET /api/health/ready answers with, ready for a 200", () => {
    const shown: { file: string; code: string; status: string }[] = [];
    for (const file of documents) {
      const text = readFileSync(path.join(repoRoot, file), 'utf8');
      for (const [, after] of text.matchAll(/health\/ready([\s\S]{0,300})/g)) {
        const window = (after ?? '').split('health')[0] ?? '';
        const example = /\b(\d{3})\b[^`]*`\{\s*"status"\s*:\s*"([^"]*)"/.exec(window);
        if (example) shown.push({ file, code: example[1] ?? '', status: example[2] ?? '' });
      }
    }
    expect(shown.length).toBeGreaterThan(0);
    for (const { file, code, status } of shown) {
      expect(readinessResponseSchema.shape.status.options, file).toContain(status);
      if (code === '200') expect(status, file).toBe('ready');
    }
  });
});

afterAll(() => {
  vi.unstubAllEnvs();
});
