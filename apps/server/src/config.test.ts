import { describe, expect, it } from 'vitest';
import { type ConfigRole, loadConfig as loadConfigIn } from './config.ts';
import { envSchema, gatewaySchema } from './config-schema.ts';
import { ConfigError, strayVariables } from './config-shared.ts';
import { loadGatewayConfig } from './gateway/config.ts';

// What each setting reads, outside production (whose own refusals and defaults are tested below).
const loadConfig = (env: NodeJS.ProcessEnv, role?: ConfigRole) =>
  loadConfigIn({ NODE_ENV: 'development', ...env }, role);
const production = (env: NodeJS.ProcessEnv, role?: ConfigRole) => loadConfigIn(env, role);

describe('loadConfig', () => {
  it('defaults to embedded PGlite under ./data, port 3000 and the spec prices', () => {
    const config = loadConfig({});
    expect(config.database.kind).toBe('pglite');
    expect(config.port).toBe(3000);
    // Loopback only until HOST says otherwise, the gateway too.
    expect([config.host, config.gateway.host]).toEqual(['127.0.0.1', '127.0.0.1']);
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.pricesCents).toEqual({ isp_proxies: 250, pk1_isp_proxies: 250, residential_proxies: 500 });
    expect(config.seedDemo).toBe(true);
  });

  it('reads postgres:// URLs, memory:// and pglite:<dir>', () => {
    const secret = 'x'.repeat(32);
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://u@h/db',
        AUTH_SECRET: secret,
        SMTP_URL: 'smtp://m',
        PAYMENTS_SANDBOX: 'true',
      }).database,
    ).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://u@h/db',
      poolSize: 10,
      connectTimeoutMs: 10_000,
      statementTimeoutMs: 30_000,
    });
    expect(loadConfig({ DATABASE_URL: 'memory://' }).database).toMatchObject({ kind: 'pglite', dataDir: undefined });
    expect(loadConfig({ DATABASE_URL: 'pglite:/tmp/x' }).database).toEqual({
      kind: 'pglite',
      dataDir: '/tmp/x',
      chosenBy: 'DATABASE_URL',
    });
    expect(loadConfig({ DATA_DIR: '/srv/shop' }).database).toEqual({
      kind: 'pglite',
      dataDir: '/srv/shop/pglite',
      chosenBy: 'DATA_DIR',
    });
  });

  it('reads the gateway settings and refuses bad ones', () => {
    const gateway = loadConfig({ APP_URL: 'https://shop.example.com', GATEWAY_PORT: '9000' }).gateway;
    expect(gateway).toMatchObject({ enabled: true, port: 9000, allowPrivateTargets: false, upstream: undefined });
    expect(gateway.purchaseUrl).toBe('https://shop.example.com/dashboard/purchase');
    const upstream = loadConfig({ RESIDENTIAL_UPSTREAM_URL: 'http://u:p@gate.example:7777' }).gateway.upstream;
    expect(upstream?.usernameTemplate).toContain('{session}');
    for (const [name, env] of [
      ['GATEWAY_PORT', { PORT: '8080', GATEWAY_PORT: '8080' }],
      ['RESIDENTIAL_UPSTREAM_URL', { RESIDENTIAL_UPSTREAM_URL: 'ftp://gate.example' }],
      ['RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE', { RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE: '{user}-{city}' }],
    ] as const) {
      expect(() => loadConfig(env), name).toThrow(name);
    }
    expect(loadConfig({ PORT: '8080', GATEWAY_PORT: '8080', GATEWAY_ENABLED: 'false' }).gateway.enabled).toBe(false);
  });

  it('reads the API key limit, and refuses bad values', () => {
    expect(loadConfig({})).toMatchObject({ apiKeyRateLimitPerMinute: 120 });
    expect(loadConfig({ API_KEY_RATE_LIMIT_PER_MINUTE: '5' })).toMatchObject({ apiKeyRateLimitPerMinute: 5 });
    expect(() => loadConfig({ API_KEY_RATE_LIMIT_PER_MINUTE: '0' })).toThrow(ConfigError);
  });

  it('names every bad variable', () => {
    try {
      loadConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        SEED_DEMO: 'maybe',
        PRICE_ISP_PROXIES: '-1',
        REDIS_URL: 'localhost:6379',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      for (const name of ['PORT', 'DATABASE_URL', 'SEED_DEMO', 'PRICE_ISP_PROXIES', 'REDIS_URL']) {
        expect(message).toContain(name);
      }
    }
  });

  it('needs AUTH_SECRET with PostgreSQL in production, and keeps a generated one beside embedded data', () => {
    expect(() => production({ DATABASE_URL: 'postgres://u@h/db' })).toThrow(/AUTH_SECRET/);
    expect(loadConfig({ DATA_DIR: '/srv/shop' }).auth.secretFile).toBe('/srv/shop/auth-secret');
    expect(loadConfig({ DATABASE_URL: 'memory://' }).auth.secretFile).toBeUndefined();
  });

  it('refuses to log e-mails in production with PostgreSQL unless told to on purpose', () => {
    const shop = { DATABASE_URL: 'postgres://u@h/db', AUTH_SECRET: 'x'.repeat(32), PAYMENTS_SANDBOX: 'true' };
    expect(() => production(shop)).toThrow(/SMTP_URL is required in production with PostgreSQL/);
    expect(production({ ...shop, SMTP_URL: 'smtp://mail.example.com' }).mail.smtpUrl).toBe('smtp://mail.example.com');
    expect(production({ ...shop, LOG_EMAILS: 'true' }).mail.smtpUrl).toBeUndefined();
    expect(loadConfig(shop).mail.smtpUrl).toBeUndefined();
    expect(loadConfig({}).mail.smtpUrl).toBeUndefined();
  });

  it('refuses a number that is only spaces rather than reading it as 0 (PORT=" " would pick a free port)', () => {
    expect(() => loadConfig({ PORT: ' ' })).toThrow('PORT must be a whole number from 0 to 65535');
    expect(() => loadConfig({ METRICS_PORT: '  ' })).toThrow(/METRICS_PORT must be a whole number/);
    expect(loadConfig({ PORT: ' 3005 ' }).port).toBe(3005);
  });

  it('reads ADMIN_EMAILS as a lower-case list and refuses what is not an address', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' Boss@Example.com, ops@example.com ,' }).auth.adminEmails).toEqual([
      'boss@example.com',
      'ops@example.com',
    ]);
    expect(() => loadConfig({ ADMIN_EMAILS: 'boss' })).toThrow(/ADMIN_EMAILS/);
  });

  it('reads the alerts: ALERT_EMAILS as a list, the stock levels as whole numbers, each bad value in its sentence', () => {
    expect(loadConfig({}).alerts).toEqual({ emails: [], lowStockIps: 20, lowStockGb: 50 });
    expect(
      loadConfig({ ALERT_EMAILS: 'Ops@Example.com, pager@example.com,ops@example.com', LOW_STOCK_ALERT_IPS: '0' })
        .alerts,
    ).toEqual({ emails: ['ops@example.com', 'pager@example.com'], lowStockIps: 0, lowStockGb: 50 });
    const refused = (() => {
      try {
        loadConfig({ ALERT_EMAILS: 'ops@example.com, pager', LOW_STOCK_ALERT_IPS: '-1', LOW_STOCK_ALERT_GB: 'lots' });
      } catch (error) {
        return error as ConfigError;
      }
    })();
    expect(refused?.problems).toEqual([
      'LOW_STOCK_ALERT_IPS must be a whole number from 0 to 1000000 free IPs, 0 for no alert (got "-1").',
      'LOW_STOCK_ALERT_GB must be a whole number from 0 to 1000000 GB, 0 for no alert (got "lots").',
    ]);
    expect(() => loadConfig({ ALERT_EMAILS: 'ops@example.com, pager' })).toThrow(
      'ALERT_EMAILS must be e-mail addresses separated by commas (got "pager").',
    );
  });

  it('switches a social sign-in on only with both its id and secret', () => {
    const config = loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' });
    expect(config.auth.google?.clientId).toBe('id');
    expect(config.site.socialSignIn).toEqual({ google: true, discord: false });
    expect(() => loadConfig({ DISCORD_CLIENT_ID: 'id' })).toThrow(/DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET/);
  });

  it('sends mail from the brand at the APP_URL host unless MAIL_FROM says otherwise', () => {
    expect(loadConfig({ APP_URL: 'https://shop.example.com', BRAND_NAME: 'Shop' }).mail.from).toBe(
      '"Shop" <no-reply@shop.example.com>',
    );
    expect(loadConfig({ MAIL_FROM: 'a@b.c' }).mail.from).toBe('a@b.c');
    expect(() => loadConfig({ SMTP_URL: 'http://x' })).toThrow(/SMTP_URL/);
  });

  it('uses the sandbox without Stripe keys, Stripe with both, and refuses one without the other', () => {
    expect(loadConfig({}).payments.provider).toBe('sandbox');
    const stripe = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }).payments;
    expect(stripe).toMatchObject({ provider: 'stripe', secretKey: 'sk_test_abc123', webhookSecret: 'whsec_abc' });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123' })).toThrow(/STRIPE_WEBHOOK_SECRET is required/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(/STRIPE_SECRET_KEY is required/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(
      'STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_…, sk_test_… or rk_…) (got a value of 11 characters).',
    );
  });
});

function refusal(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
}

describe('refusals in words', () => {
  it('says what the variable accepts and what it got, in one sentence', () => {
    expect(refusal({ PORT: 'abc' })).toEqual([
      'PORT must be a whole number from 0 to 65535 (0 picks a free port) (got "abc").',
    ]);
    expect(refusal({ LOG_LEVEL: 'loud' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").',
    ]);
    expect(refusal({ MIGRATE_ON_START: 'maybe' })).toEqual(['MIGRATE_ON_START must be true or false (got "maybe").']);
    expect(refusal({ SHUTDOWN_TIMEOUT_S: '1.5' })).toEqual([
      'SHUTDOWN_TIMEOUT_S must be a whole number from 1 to 3600 seconds (got "1.5").',
    ]);
    expect(refusal({ PRICE_ISP_PROXIES: '-1' })).toEqual([
      'PRICE_ISP_PROXIES must be a price in US dollars above 0 and at most 100000, such as 2.50 (got "-1").',
    ]);
  });

  it('never repeats a secret or a password it refuses', () => {
    const problems = refusal({
      AUTH_SECRET: 'short-secret',
      REDIS_URL: 'cache.example.com:6379',
      DATABASE_URL: 'mysql://admin:hunter2@db.example.com/shop',
    });
    expect(problems).toContain(
      'AUTH_SECRET must be at least 32 characters long (make one with: openssl rand -base64 32) (got a value of 12 characters).',
    );
    expect(problems.join(' ')).not.toContain('hunter2');
    expect(problems.join(' ')).toContain('"mysql://admin:***@db.example.com/shop"');
  });

  it("refuses every bad value with a sentence of its own, never in the schema library's words", () => {
    const bad = ['abc', '-1', '1.5', '99999999999', 'x'.repeat(5000), 'ftp://', '{nope}'];
    const problems = Object.keys(envSchema.shape).flatMap((name) =>
      bad.flatMap((value) => refusal({ [name]: value }).filter((problem) => problem.startsWith(`${name} must be `))),
    );
    expect(problems.length).toBeGreaterThan(100);
    for (const problem of problems) {
      expect(problem).toMatch(/^[A-Z][A-Z0-9_]+ must be .+ \(got .+\)\.$/);
      expect(problem).not.toMatch(/Invalid|expected|received|Too (big|small)|NaN/);
    }
  });
});

describe('production defaults', () => {
  const postgres = {
    DATABASE_URL: 'postgres://u@h/db',
    AUTH_SECRET: 'x'.repeat(32),
    SMTP_URL: 'smtp://mail.example.com',
  };

  it('refuses the sandbox in production on any database unless PAYMENTS_SANDBOX=true', () => {
    expect(() => production(postgres)).toThrow(/STRIPE_SECRET_KEY is required .*PAYMENTS_SANDBOX=true/);
    // A mistyped DATABASE_URL falls back to the embedded database: still no sandbox.
    expect(() => production({})).toThrow(/STRIPE_SECRET_KEY is required/);
    expect(production({ ...postgres, PAYMENTS_SANDBOX: 'true' }).payments.provider).toBe('sandbox');
    expect(production({ PAYMENTS_SANDBOX: 'true' }).payments.provider).toBe('sandbox');
    const stripe = { STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
    expect(production({ ...postgres, ...stripe }).payments.provider).toBe('stripe');
    // Outside production the embedded default stays zero-configuration; a gateway or a migration takes no payments.
    expect(loadConfig({}).payments.provider).toBe('sandbox');
    expect(loadGatewayConfig({ DATABASE_URL: 'postgres://u@h/db' }).database.kind).toBe('postgres');
    expect(production({ DATABASE_URL: 'postgres://u@h/db' }, 'migrate').database.kind).toBe('postgres');
  });

  it('seeds the demo inventory by default only on the embedded database outside production', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(production({ PAYMENTS_SANDBOX: 'true' }).seedDemo).toBe(false);
    expect(production({ ...postgres, PAYMENTS_SANDBOX: 'true' }).seedDemo).toBe(false);
    expect(production({ ...postgres, PAYMENTS_SANDBOX: 'true', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('stops at a variable that looks meant for the shop, naming the setting, and only warns elsewhere', () => {
    const typos = { DATABSE_URL: 'postgres://u@h/db', STRIPE_SECRT_KEY: 'sk_live_abc', GATEWAY_PROT: '9000' };
    expect(() => production({ ...typos, PAYMENTS_SANDBOX: 'true' })).toThrow(
      /DATABSE_URL is not a setting of the shop: did you mean DATABASE_URL\?/,
    );
    const problems = (() => {
      try {
        production({ ...typos, PAYMENTS_SANDBOX: 'true' });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    })();
    expect(problems).toEqual(
      expect.arrayContaining([
        'STRIPE_SECRT_KEY is not a setting of the shop: did you mean STRIPE_SECRET_KEY?',
        'GATEWAY_PROT is not a setting of the shop: did you mean GATEWAY_PORT?',
      ]),
    );
    expect(strayVariables(typos)).toHaveLength(3);
    expect(() => loadConfig(typos)).not.toThrow();
    // Others' variables, the shop's own, and Kubernetes' service links are never taken for typos.
    const others = {
      PATH: '/bin',
      HOME: '/root',
      NODE_OPTIONS: '',
      npm_config_cache: '/x',
      OTEL_TRACES_SAMPLER: 'always_on',
      PGPASSWORD: 'p',
      POSTGRES_PASSWORD: 'p',
      REDIS_PORT: 'tcp://10.0.0.1:6379',
      REDIS_SERVICE_HOST: '10.0.0.1',
      HOST: '0.0.0.0',
      PORT: '3000',
      TZ: 'UTC',
      HOSTNAME: 'shop-1',
    };
    expect(strayVariables(others)).toEqual([]);
  });

  it('names the setting of the same prefix, and leaves names too common elsewhere alone', () => {
    expect(strayVariables({ CHECKOUT_LIMIT: '5', RESIDENTIAL_UPSTREAM: 'http://gate:7777' })).toEqual([
      'CHECKOUT_LIMIT is not a setting of the shop: did you mean CHECKOUT_RATE_LIMIT_PER_USER?',
      'RESIDENTIAL_UPSTREAM is not a setting of the shop: did you mean RESIDENTIAL_UPSTREAM_URL?',
    ]);
    // A misspelt port is no service link: only a Kubernetes link's tcp:// value is.
    expect(strayVariables({ METRIC_PORT: '9470', SMTP_PORT: '587' })).toEqual([
      'METRIC_PORT is not a setting of the shop: did you mean METRICS_PORT?',
      'SMTP_PORT is not a setting of the shop: did you mean SMTP_URL?',
    ]);
    // A setting written in lower case is still that setting's typo.
    expect(strayVariables({ database_url: 'postgres://u@h/db' })).toEqual([
      'database_url is not a setting of the shop: did you mean DATABASE_URL?',
    ]);
    const common = {
      APP_ENV: 'prod',
      API_KEY: 'k',
      LOG_FORMAT: 'json',
      DATA_PATH: '/srv',
      WEB_CONCURRENCY: '2',
      OS: 'Windows_NT',
      GOOGLE_APPLICATION_CREDENTIALS: '/key.json',
      GOOGLE_CLOUD_PROJECT: 'shop',
    };
    expect(strayVariables(common)).toEqual([]);
  });

  it('drains 5 s on PostgreSQL and not at all on the embedded database, unless told', () => {
    expect(production({ PAYMENTS_SANDBOX: 'true' }).shutdown).toEqual({ drainMs: 0, timeoutSeconds: 10 });
    expect(production({ ...postgres, PAYMENTS_SANDBOX: 'true' }).shutdown).toEqual({
      drainMs: 5000,
      timeoutSeconds: 10,
    });
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '250', SHUTDOWN_TIMEOUT_S: '3' }).shutdown).toEqual({
      drainMs: 250,
      timeoutSeconds: 3,
    });
  });

  it('reads the pool settings', () => {
    const database = production({
      ...postgres,
      PAYMENTS_SANDBOX: 'true',
      DATABASE_POOL_SIZE: '25',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
    }).database;
    expect(database).toMatchObject({ poolSize: 25, connectTimeoutMs: 2000, statementTimeoutMs: 0 });
    expect(refusal({ SHUTDOWN_DRAIN_MS: '10000' })).toEqual([
      'SHUTDOWN_DRAIN_MS (10000 ms) must be shorter than SHUTDOWN_TIMEOUT_S (10 s), which bounds the whole stop.',
    ]);
    expect(refusal({ DATABASE_POOL_SIZE: '0' })).toEqual([
      'DATABASE_POOL_SIZE must be a whole number from 1 to 1000 (got "0").',
    ]);
  });
});

describe('the one schema', () => {
  it("gives the gateway on its own the shop's own settings, in the shop's order", () => {
    const shop = Object.keys(envSchema.shape);
    const gateway = Object.keys(gatewaySchema.shape);
    expect(gateway).toEqual(shop.filter((name) => gateway.includes(name)));
    for (const name of gateway) {
      expect(gatewaySchema.shape[name as keyof typeof gatewaySchema.shape], name).toBe(
        envSchema.shape[name as keyof typeof envSchema.shape],
      );
    }
  });
});

describe('TRUST_PROXY', () => {
  it('trusts one proxy for true, a number of them, or the listed ones, and never every entry', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY must be false, true/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY must be/);
  });
});
