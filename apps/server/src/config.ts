import path from 'node:path';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '@storefront/contract/site';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { ConfigError, LOG_LEVELS, type LogLevel, loadEnvFile, refusal, strayVariables } from './config-shared.ts';
import type { GatewayConfig } from './gateway/config.ts';
import { shippedPaths } from './lifecycle/release.ts';

// Every schema below carries its own refusal: the phrase of what it accepts, which becomes the sentence
// "<VARIABLE> must be <what it accepts> (got <what it got>)". No schema library's wording reaches the operator. The
// standalone gateway reads its own settings without zod (gateway/config.ts), in the same words.

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * A whole number in a range; `unit` is said after the range (" milliseconds"). Only spaces is refused, not read as 0
 * (`PORT= ` would otherwise pick a free port, `METRICS_PORT= ` turn the metrics off).
 */
function wholeNumber(min: number, max: number, unit = '', note = '') {
  const accepts = `a whole number from ${min} to ${max}${unit}${note}`;
  return z
    .string()
    .refine((value) => value.trim() !== '', { error: accepts })
    .transform(Number)
    .pipe(
      z.number({ error: accepts }).int({ error: accepts }).min(min, { error: accepts }).max(max, { error: accepts }),
    );
}

const TRUST_PROXY_ACCEPTS =
  'false, true (one proxy in front), the number of proxies in front, or their addresses and CIDR ranges, comma-separated';

/**
 * Which X-Forwarded-For entries are the load balancers': none (false), the last one or `n` (true = 1: the address the
 * proxy saw connect, which a client cannot forge), or those from the listed proxies. Never every entry: the leftmost
 * is whatever the client wrote, and every limit would count it.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    const lower = value.toLowerCase();
    if (['false', '0', 'no'].includes(lower)) return false;
    if (['true', 'yes'].includes(lower)) return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const ranges = value.split(',').map((item) => item.trim());
    const valid = (range: string) =>
      ['loopback', 'linklocal', 'uniquelocal'].includes(range) ||
      ipaddr.isValid(range) ||
      (() => {
        try {
          ipaddr.parseCIDR(range);
          return true;
        } catch {
          return false;
        }
      })();
    if (ranges.every((range) => range !== '' && valid(range))) return ranges;
    ctx.addIssue({ code: 'custom', message: TRUST_PROXY_ACCEPTS });
    return z.NEVER;
  });

const portNumber = (note = '') => wholeNumber(0, 65_535, '', ` (0 picks a free port${note})`);

const price = z.coerce
  .number({ error: 'a price in US dollars above 0 and at most 100000, such as 2.50' })
  .positive({ error: 'a price in US dollars above 0 and at most 100000, such as 2.50' })
  .max(100_000, { error: 'a price in US dollars above 0 and at most 100000, such as 2.50' });

const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, error: `an absolute http:// or https:// URL such as ${example}` });

const text = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: what })
    .max(max, { error: `${what} of at most ${max} characters` });

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `one of ${values.join(', ')}` });
}

const UPSTREAM_PLACEHOLDERS = ['username', 'country', 'COUNTRY', 'session', 'duration', 'hard', 'type'];

const databaseUrl = z
  .string()
  .refine(
    (value) => /^(postgres|postgresql):\/\/.+/.test(value) || /^pglite:.+/.test(value) || value === 'memory://',
    'a postgres:// URL, pglite:<directory> or memory://',
  )
  // pg would stop at its first connection with "Invalid URL" alone. It also reads `user@/db?host=/socket`.
  .refine(
    (value) =>
      !/^postgres(ql)?:\/\//.test(value) ||
      [value, value.replace('@/', '@localhost/')].some((url) => URL.canParse(url)),
    'a postgres:// URL that parses: a password with special characters must be percent-encoded ' +
      '(/ as %2F, ? %3F, # %23, @ %40, % %25), or given in PGPASSWORD',
  );

/** Every setting, by its variable; docs/configuration.md and .env.example are held to it by config-docs.test.ts. */
export const envSchema = z.object({
  NODE_ENV: oneOf(['development', 'production', 'test']).default('production'),
  // Loopback unless asked: a shop started to try it is not on the network (the image and the unit set 0.0.0.0).
  HOST: text('an address to listen on, such as 0.0.0.0', 255).default('127.0.0.1'),
  PORT: portNumber().default(3000),
  APP_URL: httpUrl('https://shop.example.com').optional(),
  LOG_LEVEL: oneOf(LOG_LEVELS).default('info'),
  TRUST_PROXY: trustProxy.default(false),
  DATABASE_URL: databaseUrl.optional(),
  DATABASE_POOL_SIZE: wholeNumber(1, 1000).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber(0, 600_000, ' milliseconds', ', 0 for no limit').default(10_000),
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber(0, 3_600_000, ' milliseconds', ', 0 for no limit').default(30_000),
  MIGRATE_ON_START: booleanString.default(true),
  DATA_DIR: text('a folder', 4096).default('./data'),
  SEED_DEMO: booleanString.optional(),
  WEB_DIST_DIR: text('a folder', 4096).optional(),
  SHUTDOWN_DRAIN_MS: wholeNumber(0, 300_000, ' milliseconds').optional(),
  SHUTDOWN_TIMEOUT_S: wholeNumber(1, 3600, ' seconds').default(10),
  BRAND_NAME: text('a name', 60).default(DEFAULT_SITE_CONFIG.brandName),
  CHAT_COMMUNITY_URL: httpUrl('https://discord.gg/invite').default(DEFAULT_SITE_CONFIG.chatCommunityUrl),
  SUPPORT_URL: httpUrl('https://support.example.com').optional(),
  PRICING_CACHE_MS: wholeNumber(0, 60_000, ' milliseconds').default(1000),
  PRICE_ISP_PROXIES: price.default(2.5),
  PRICE_PK1_ISP_PROXIES: price.default(2.5),
  PRICE_RESIDENTIAL_PROXIES: price.default(5),
  GATEWAY_PORT: portNumber().default(8080),
  GATEWAY_ENABLED: booleanString.default(true),
  GATEWAY_HOST: text('an address to listen on, such as 0.0.0.0', 255).optional(),
  GATEWAY_ALLOW_PRIVATE: booleanString.default(false),
  GATEWAY_FLUSH_MS: wholeNumber(100, 60_000, ' milliseconds').default(2000),
  GATEWAY_CACHE_MS: wholeNumber(0, 60_000, ' milliseconds').default(5000),
  GATEWAY_AUTH_FAILURES_PER_IP: wholeNumber(1, 1_000_000, ' failed proxy authentications').default(20),
  GATEWAY_MAX_CONNECTIONS_PER_IP: wholeNumber(1, 1_000_000, ' open connections').default(500),
  GATEWAY_PROXY_PROTOCOL: booleanString.default(false),
  RESIDENTIAL_UPSTREAM_URL: z
    .string()
    .refine(
      (value) => /^(https?|socks5h?|socks4a?|socks):\/\/[^/\s]+/.test(value) && URL.canParse(value),
      'an http://, https:// or socks5:// proxy URL such as http://user:pass@gate.provider.example:7777',
    )
    .optional(),
  RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE: z
    .string()
    .trim()
    .max(300, 'a template of at most 300 characters')
    .refine(
      (value) => [...value.matchAll(/\{([^}]*)\}/g)].every(([, name]) => UPSTREAM_PLACEHOLDERS.includes(name ?? '')),
      'a template using only the placeholders {username}, {country}, {COUNTRY}, {session}, {duration}, {hard} and {type}',
    )
    .default('{username}-country-{country}-session-{session}-duration-{duration}[-{hard}]'),
  AUTH_SECRET: z.string().min(32, 'at least 32 characters long (make one with: openssl rand -base64 32)').optional(),
  ADMIN_EMAILS: z.string().optional(),
  ALERT_EMAILS: z.string().optional(),
  LOW_STOCK_ALERT_IPS: wholeNumber(0, 1_000_000, ' free IPs', ', 0 for no alert').default(20),
  LOW_STOCK_ALERT_GB: wholeNumber(0, 1_000_000, ' GB', ', 0 for no alert').default(50),
  SMTP_URL: z
    .string()
    .refine(
      (value) => /^smtps?:\/\/.+/.test(value),
      'an smtp:// or smtps:// URL such as smtps://user:pass@smtp.example.com:465',
    )
    .optional(),
  MAIL_FROM: text('a sender address such as "Shop" <no-reply@shop.example.com>', 320).optional(),
  LOG_EMAILS: booleanString.default(false),
  GOOGLE_CLIENT_ID: text('a client id', 500).optional(),
  GOOGLE_CLIENT_SECRET: text('a client secret', 500).optional(),
  GOOGLE_DISCOVERY_URL: httpUrl('https://accounts.google.com/.well-known/openid-configuration').default(
    'https://accounts.google.com/.well-known/openid-configuration',
  ),
  DISCORD_CLIENT_ID: text('a client id', 500).optional(),
  DISCORD_CLIENT_SECRET: text('a client secret', 500).optional(),
  AUTH_RATE_LIMIT_WINDOW_S: wholeNumber(1, 86_400, ' seconds').default(600),
  AUTH_RATE_LIMIT_PER_IP: wholeNumber(1, 1_000_000).default(30),
  AUTH_RATE_LIMIT_PER_EMAIL: wholeNumber(1, 1_000_000).default(8),
  AUTH_RATE_LIMIT_PER_ACCOUNT: wholeNumber(1, 1_000_000).default(100),
  JOBS_INTERVAL_S: wholeNumber(0, 86_400, ' seconds', ', 0 for never').default(60),
  CHECKOUT_RATE_LIMIT_PER_USER: wholeNumber(1, 1_000_000).default(20),
  API_KEY_RATE_LIMIT_PER_MINUTE: wholeNumber(1, 1_000_000).default(120),
  REDIS_URL: z
    .string()
    .refine(
      (value) => /^rediss?:\/\/.+/.test(value),
      'a redis:// or rediss:// URL such as redis://cache.example.com:6379',
    )
    .optional(),
  REDIS_KEY_PREFIX: text('a prefix', 100).default('storefront:'),
  METRICS_HOST: text('an address to listen on, such as 127.0.0.1', 255).default('127.0.0.1'),
  METRICS_PORT: wholeNumber(0, 65_535, '', ', 0 to turn the metrics listener off').default(9464),
  // Read by the OpenTelemetry SDK itself (lib/tracing.ts), checked here so that a mistake stops the start with a sentence.
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl('http://otel-collector:4318').optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: oneOf(['http/protobuf', 'http/json']).optional(),
  OTEL_SERVICE_NAME: text('a service name', 255).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .refine((value) => /^(sk|rk)_(test|live)_\w+$/.test(value), 'a Stripe secret key (sk_live_…, sk_test_… or rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .refine((value) => value.startsWith('whsec_'), 'a webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_API_URL: httpUrl('http://127.0.0.1:12111').optional(),
  STRIPE_TIMEOUT_S: wholeNumber(1, 15, ' seconds').default(15),
  PAYMENTS_SANDBOX: booleanString.default(false),
});

export type DatabaseTarget =
  | {
      kind: 'pglite';
      /** The database's folder, or undefined for memory://. */
      dataDir: string | undefined;
      /** The setting that chose the folder, named when it is in use by another process. */
      chosenBy: 'DATA_DIR' | 'DATABASE_URL';
    }
  | {
      kind: 'postgres';
      connectionString: string;
      poolSize: number;
      connectTimeoutMs: number;
      /** PostgreSQL cancels a statement that runs longer (0 = no limit). */
      statementTimeoutMs: number;
    };

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  appUrl: string;
  logLevel: LogLevel;
  /** Fastify's trustProxy: false, a number of proxies in front, or their addresses and ranges. */
  trustProxy: false | number | string[];
  database: DatabaseTarget;
  /** Apply the migrations at start-up (`node . migrate` applies them alone). */
  migrateOnStart: boolean;
  /** Seed the demo inventory on a new database: by default only on the embedded one, outside production. */
  seedDemo: boolean;
  shutdown: {
    /** How long a stopping server keeps serving with readiness at 503, for a load balancer to take it out. */
    drainMs: number;
    /** The whole stop, drain included, before it gives up and exits 1. */
    timeoutSeconds: number;
  };
  webDistDir: string;
  site: SiteConfig;
  /** How long GET /api/pricing reuses its answer (0 = never). */
  pricingCacheMs: number;
  /** Requests a personal API key may make a minute (counted in the rate-limit store). */
  apiKeyRateLimitPerMinute: number;
  /** Unit prices in cents: per IP per month (ISP, PK1) and per GB (residential). */
  pricesCents: { isp_proxies: number; pk1_isp_proxies: number; residential_proxies: number };
  /** host:port customers put in their tools for residential proxies. */
  gatewayEndpoint: string;
  gateway: GatewayConfig & {
    /** Whether the server process runs the gateway too (`npm run gateway` runs it alone). */
    enabled: boolean;
  };
  auth: AuthConfig;
  mail: { smtpUrl: string | undefined; from: string };
  payments: PaymentsConfig;
  /** Shared store of the rate-limit counters (sign-in, checkout) when several instances run; else each keeps its own. */
  redis: { url: string; keyPrefix: string } | undefined;
  /** The Prometheus listener, apart from the public port; undefined when METRICS_PORT is 0. */
  metrics: { host: string; port: number } | undefined;
  /** How often the periodic job runs in the server process (renewals, expiries, reminders, e-mails); 0 = never. */
  jobsIntervalSeconds: number;
  alerts: AlertsConfig;
}

/** Who is e-mailed what needs a person (besides the confirmed administrators), and the stock levels that need one. */
export interface AlertsConfig {
  /** Addresses e-mailed every alert, lower case. */
  emails: string[];
  /** An ISP or PK1 pool with fewer free IPs opens an alert (0 = never). */
  lowStockIps: number;
  /** A residential pool with fewer free GB opens an alert (0 = never). */
  lowStockGb: number;
}

/** Stripe when its keys are set; otherwise the sandbox provider, where no real money moves. */
export type PaymentsConfig = {
  checkoutRateLimitPerUser: number;
  currency: 'usd';
} & (
  | { provider: 'sandbox' }
  | {
      provider: 'stripe';
      secretKey: string;
      webhookSecret: string;
      /** Tests point the SDK at a local stand-in: protocol, host and port of this URL. */
      apiUrl: string | undefined;
      /** The longest a person waits on Stripe for one action, its retries included. */
      waitSeconds: number;
    }
);

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export interface AuthConfig {
  /** Signs sessions and encrypts two-factor secrets; undefined means "generate one and keep it in DATA_DIR". */
  secret: string | undefined;
  /** Where a generated secret is kept (embedded database only). */
  secretFile: string | undefined;
  adminEmails: string[];
  google: (OAuthClient & { discoveryUrl: string }) | undefined;
  discord: OAuthClient | undefined;
  rateLimit: {
    windowSeconds: number;
    perIp: number;
    /** Per e-mail address and IP (and per device cookie, and per session for password checks). */
    perEmail: number;
    /** Per e-mail address from every IP together. */
    perAccount: number;
  };
}

function databaseTarget(e: z.infer<typeof envSchema>): DatabaseTarget {
  const url = e.DATABASE_URL;
  if (url === undefined) return { kind: 'pglite', dataDir: path.resolve(e.DATA_DIR, 'pglite'), chosenBy: 'DATA_DIR' };
  if (url === 'memory://') return { kind: 'pglite', dataDir: undefined, chosenBy: 'DATABASE_URL' };
  if (url.startsWith('pglite:')) {
    return { kind: 'pglite', dataDir: path.resolve(url.slice('pglite:'.length)), chosenBy: 'DATABASE_URL' };
  }
  return {
    kind: 'postgres',
    connectionString: url,
    poolSize: e.DATABASE_POOL_SIZE,
    connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
  };
}

/**
 * Which process reads the configuration: the server and the job runner take payments and send e-mail; `migrate` needs
 * only the database. The standalone gateway reads its own (gateway/config.ts).
 */
export type ConfigRole = 'server' | 'jobs' | 'migrate';

const toCents = (dollars: number) => Math.round(dollars * 100);

/**
 * Reads the environment once; a bad value throws a ConfigError with one sentence for each bad variable, naming it,
 * what it accepts and what it got.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, role: ConfigRole = 'server'): Config {
  const blankAsUnset = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  const parsed = envSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const problems = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      if (problems.has(name)) continue;
      problems.set(name, refusal(name, issue.message, blankAsUnset[name]));
    }
    throw new ConfigError([...problems.values()]);
  }
  const e = parsed.data;
  const problems: string[] = [];
  const google = oauthClient('GOOGLE', e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET, problems);
  const discord = oauthClient('DISCORD', e.DISCORD_CLIENT_ID, e.DISCORD_CLIENT_SECRET, problems);
  const database = databaseTarget(e);
  const production = e.NODE_ENV === 'production';
  const takesOrders = role === 'server' || role === 'jobs';
  if (takesOrders && database.kind === 'postgres' && e.AUTH_SECRET === undefined && production) {
    problems.push('AUTH_SECRET is required with PostgreSQL, so that every server instance signs sessions alike.');
  }
  // On any database: a mistyped DATABASE_URL must not turn a production shop into one on the embedded database that
  // takes test payments.
  if (takesOrders && production && !e.STRIPE_SECRET_KEY && !e.PAYMENTS_SANDBOX) {
    problems.push(
      'STRIPE_SECRET_KEY is required in production, because without it payments go to the sandbox and anyone with ' +
        'an account could pay with its test card (set PAYMENTS_SANDBOX=true to run the sandbox on purpose).',
    );
  }
  if (production) problems.push(...strayVariables(env));
  const adminEmails = emailList('ADMIN_EMAILS', e.ADMIN_EMAILS, problems);
  const alertEmails = emailList('ALERT_EMAILS', e.ALERT_EMAILS, problems);
  if (takesOrders && database.kind === 'postgres' && production && !e.SMTP_URL && !e.LOG_EMAILS) {
    problems.push(
      'SMTP_URL is required in production with PostgreSQL, because without it e-mails, with their sign-in and reset ' +
        'links, are written to the log instead of sent (set LOG_EMAILS=true to do that on purpose).',
    );
  }
  if (role === 'server' && e.GATEWAY_ENABLED && e.GATEWAY_PORT !== 0 && e.GATEWAY_PORT === e.PORT) {
    problems.push(`GATEWAY_PORT must differ from PORT (both are ${e.PORT}), or set GATEWAY_ENABLED=false.`);
  }
  const drainMs = e.SHUTDOWN_DRAIN_MS ?? (database.kind === 'postgres' ? 5000 : 0);
  if (drainMs >= e.SHUTDOWN_TIMEOUT_S * 1000) {
    problems.push(
      `SHUTDOWN_DRAIN_MS (${drainMs} ms${e.SHUTDOWN_DRAIN_MS === undefined ? ', the default with PostgreSQL' : ''}) must ` +
        `be shorter than SHUTDOWN_TIMEOUT_S (${e.SHUTDOWN_TIMEOUT_S} s), which bounds the whole stop.`,
    );
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    problems.push('STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY, or paid orders would never be delivered.');
  }
  if (!e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET) {
    problems.push('STRIPE_SECRET_KEY is required with STRIPE_WEBHOOK_SECRET.');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const common = { checkoutRateLimitPerUser: e.CHECKOUT_RATE_LIMIT_PER_USER, currency: 'usd' as const };
  const payments: PaymentsConfig =
    e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
      ? {
          ...common,
          provider: 'stripe',
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          apiUrl: e.STRIPE_API_URL,
          waitSeconds: e.STRIPE_TIMEOUT_S,
        }
      : { ...common, provider: 'sandbox' };
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    appUrl: appUrlOf(e).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    database,
    migrateOnStart: e.MIGRATE_ON_START,
    seedDemo: e.SEED_DEMO ?? (database.kind === 'pglite' && !production),
    shutdown: {
      drainMs,
      timeoutSeconds: e.SHUTDOWN_TIMEOUT_S,
    },
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? shippedPaths.webDist),
    site: {
      brandName: e.BRAND_NAME,
      chatCommunityUrl: e.CHAT_COMMUNITY_URL,
      supportUrl: e.SUPPORT_URL ?? e.CHAT_COMMUNITY_URL,
      socialSignIn: { google: google !== undefined, discord: discord !== undefined },
      sandboxPayments: !(e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET),
      mailsInLog: !e.SMTP_URL,
      origin: new URL(appUrlOf(e)).origin,
    },
    pricingCacheMs: e.PRICING_CACHE_MS,
    apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT_PER_MINUTE,
    pricesCents: {
      isp_proxies: toCents(e.PRICE_ISP_PROXIES),
      pk1_isp_proxies: toCents(e.PRICE_PK1_ISP_PROXIES),
      residential_proxies: toCents(e.PRICE_RESIDENTIAL_PROXIES),
    },
    gatewayEndpoint: `${new URL(appUrlOf(e)).hostname}:${e.GATEWAY_PORT}`,
    gateway: {
      enabled: e.GATEWAY_ENABLED,
      host: e.GATEWAY_HOST ?? e.HOST,
      port: e.GATEWAY_PORT,
      allowPrivateTargets: e.GATEWAY_ALLOW_PRIVATE,
      flushMs: e.GATEWAY_FLUSH_MS,
      cacheMs: e.GATEWAY_CACHE_MS,
      authFailures: {
        perIp: e.GATEWAY_AUTH_FAILURES_PER_IP,
        windowMs: 10 * 60_000,
        redis: e.REDIS_URL ? { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX } : undefined,
      },
      maxConnectionsPerIp: e.GATEWAY_MAX_CONNECTIONS_PER_IP,
      proxyProtocol: e.GATEWAY_PROXY_PROTOCOL,
      upstream: e.RESIDENTIAL_UPSTREAM_URL
        ? { url: e.RESIDENTIAL_UPSTREAM_URL, usernameTemplate: e.RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE }
        : undefined,
      purchaseUrl: `${appUrlOf(e).replace(/\/+$/, '')}/dashboard/purchase`,
    },
    auth: {
      secret: e.AUTH_SECRET,
      secretFile: database.kind === 'pglite' && database.dataDir ? path.resolve(e.DATA_DIR, 'auth-secret') : undefined,
      adminEmails,
      google: google && { ...google, discoveryUrl: e.GOOGLE_DISCOVERY_URL },
      discord,
      rateLimit: {
        windowSeconds: e.AUTH_RATE_LIMIT_WINDOW_S,
        perIp: e.AUTH_RATE_LIMIT_PER_IP,
        perEmail: e.AUTH_RATE_LIMIT_PER_EMAIL,
        perAccount: e.AUTH_RATE_LIMIT_PER_ACCOUNT,
      },
    },
    payments,
    jobsIntervalSeconds: e.JOBS_INTERVAL_S,
    alerts: {
      emails: [...new Set(alertEmails)],
      lowStockIps: e.LOW_STOCK_ALERT_IPS,
      lowStockGb: e.LOW_STOCK_ALERT_GB,
    },
    redis: e.REDIS_URL ? { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX } : undefined,
    metrics: e.METRICS_PORT === 0 ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? `"${e.BRAND_NAME}" <no-reply@${new URL(appUrlOf(e)).hostname}>` },
  };
}

function appUrlOf(e: { APP_URL?: string | undefined; PORT: number }): string {
  return e.APP_URL ?? `http://localhost:${e.PORT}`;
}

/** Comma-separated addresses, lower case; each one that is not an address is refused with its own sentence. */
function emailList(name: string, value: string | undefined, problems: string[]): string[] {
  const emails = (value ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  for (const email of emails) {
    if (!z.email().safeParse(email).success) {
      problems.push(`${name} must be e-mail addresses separated by commas (got ${JSON.stringify(email)}).`);
    }
  }
  return emails;
}

/** A social provider is on when both its id and secret are set; one without the other is a mistake worth stopping for. */
function oauthClient(
  prefix: string,
  clientId: string | undefined,
  clientSecret: string | undefined,
  problems: string[],
): OAuthClient | undefined {
  if (clientId && clientSecret) return { clientId, clientSecret };
  if (clientId || clientSecret) {
    problems.push(
      `${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together to offer this sign-in (only ` +
        `${clientId ? `${prefix}_CLIENT_ID` : `${prefix}_CLIENT_SECRET`} is set).`,
    );
  }
  return undefined;
}

/**
 * For the command-line entry points: reads `.env`, then the configuration, or prints the sentence for each bad
 * variable and exits 1.
 */
export function loadConfigOrExit(role: ConfigRole): Config {
  try {
    loadEnvFile();
    const config = loadConfig(process.env, role);
    // In production they stopped the start (loadConfig); elsewhere a word is enough.
    for (const sentence of strayVariables(process.env)) console.warn(sentence);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
