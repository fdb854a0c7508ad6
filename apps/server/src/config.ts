// The shop's configuration: the server, the job runner and migrate read every setting of the one schema
// (config-schema.ts) and check what no single variable can say alone (a secret PostgreSQL needs, Stripe's two keys
// together, production's demands). A gateway on its own reads its part alone (gateway/config.ts).
import path from 'node:path';
import type { SiteConfig } from '@storefront/contract';
import { z } from 'zod';
import { envSchema, type LogLevel, type Settings } from './config-schema.ts';
import {
  appUrlOf,
  ConfigError,
  type DatabaseTarget,
  databaseTarget,
  loadOrExit,
  metricsOf,
  readSettings,
  redisOf,
  strayVariables,
} from './config-shared.ts';
import { type GatewayConfig, gatewayConfigOf } from './gateway/config.ts';
import { shippedPaths } from './lifecycle/release.ts';

export type { DatabaseTarget } from './config-shared.ts';

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
  /** Where the Residential tab's connection test sends its request through the gateway (GATEWAY_TEST_URL). */
  gatewayTestUrl: string | undefined;
  gateway: GatewayConfig & {
    /** Whether the server process runs the gateway too (`npm run gateway` runs it alone). */
    enabled: boolean;
  };
  auth: AuthConfig;
  mail: { smtpUrl: string | undefined; from: string; poolSize: number };
  payments: PaymentsConfig;
  /** Shared store of the rate-limit counters (sign-in, checkout) when several instances run; else each keeps its own. */
  redis: { url: string; keyPrefix: string } | undefined;
  /** The Prometheus listener, apart from the public port; undefined when METRICS_PORT is 0. */
  metrics: { host: string; port: number } | undefined;
  /** How often the periodic job runs in the server process (renewals, expiries, reminders, e-mails); 0 = never. */
  jobsIntervalSeconds: number;
  /** How much one run of the periodic job does, and how long it keeps what it prunes. */
  jobs: JobsConfig;
  alerts: AlertsConfig;
  /** The share of an Elite ISP or PK1 order's IPs its customer may replace per billing period (0 = none, else at least 1). */
  ipReplacementPercent: number;
}

export interface JobsConfig {
  /** Orders each step of a run handles at most (renewals, ends, reminders). */
  batchSize: number;
  /** E-mails one run sends at most. */
  emailBatchSize: number;
  retention: RetentionConfig;
}

/** Days kept before the periodic job deletes, and how it deletes: in batches of `batchSize` rows, a few per run. */
export interface RetentionConfig {
  sentEmailsDays: number;
  webhookEventsDays: number;
  /** Sessions and verification tokens, counted from their expiry. */
  expiredSessionsDays: number;
  abandonedCheckoutsDays: number;
  resolvedAlertsDays: number;
  batchSize: number;
  batchesPerRun: number;
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

/**
 * Which process reads the configuration: the server and the job runner take payments and send e-mail; `migrate` needs
 * only the database. A gateway on its own reads its part alone (gateway/config.ts).
 */
export type ConfigRole = 'server' | 'jobs' | 'migrate';

const toCents = (dollars: number) => Math.round(dollars * 100);

/**
 * Reads the environment once; a bad value throws a ConfigError with one sentence for each bad variable, naming it,
 * what it accepts and what it got.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, role: ConfigRole = 'server'): Config {
  const { settings: e, problems: refused } = readSettings(envSchema, env);
  if (!e) throw new ConfigError(refused);
  const problems: string[] = [];
  const google = oauthClient('GOOGLE', e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET, problems);
  const discord = oauthClient('DISCORD', e.DISCORD_CLIENT_ID, e.DISCORD_CLIENT_SECRET, problems);
  const database = databaseTarget(e);
  const production = e.NODE_ENV === 'production';
  problems.push(...productionProblems(e, role, database));
  if (production) problems.push(...strayVariables(env));
  const adminEmails = emailList('ADMIN_EMAILS', e.ADMIN_EMAILS, problems);
  const alertEmails = emailList('ALERT_EMAILS', e.ALERT_EMAILS, problems);
  problems.push(...mailProblems(e, role, database));
  const drainMs = e.SHUTDOWN_DRAIN_MS ?? (database.kind === 'postgres' ? 5000 : 0);
  problems.push(...consistencyProblems(e, role, drainMs));
  if (problems.length > 0) throw new ConfigError(problems);
  const appUrl = appUrlOf(e);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    appUrl: appUrl.replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    database,
    migrateOnStart: e.MIGRATE_ON_START,
    seedDemo: e.SEED_DEMO ?? (database.kind === 'pglite' && !production),
    shutdown: { drainMs, timeoutSeconds: e.SHUTDOWN_TIMEOUT_S },
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? shippedPaths.webDist),
    site: siteOf(e, { google: google !== undefined, discord: discord !== undefined }),
    pricingCacheMs: e.PRICING_CACHE_MS,
    apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT_PER_MINUTE,
    pricesCents: {
      isp_proxies: toCents(e.PRICE_ISP_PROXIES),
      pk1_isp_proxies: toCents(e.PRICE_PK1_ISP_PROXIES),
      residential_proxies: toCents(e.PRICE_RESIDENTIAL_PROXIES),
    },
    gatewayEndpoint: `${new URL(appUrl).hostname}:${e.GATEWAY_PORT}`,
    gatewayTestUrl: e.GATEWAY_TEST_URL,
    gateway: { enabled: e.GATEWAY_ENABLED, ...gatewayConfigOf(e) },
    auth: authOf(e, database, { adminEmails, google, discord }),
    payments: paymentsOf(e),
    jobsIntervalSeconds: e.JOBS_INTERVAL_S,
    jobs: {
      batchSize: e.JOBS_BATCH_SIZE,
      emailBatchSize: e.JOBS_EMAIL_BATCH_SIZE,
      retention: {
        sentEmailsDays: e.RETENTION_SENT_EMAILS_DAYS,
        webhookEventsDays: e.RETENTION_WEBHOOK_EVENTS_DAYS,
        expiredSessionsDays: e.RETENTION_EXPIRED_SESSIONS_DAYS,
        abandonedCheckoutsDays: e.RETENTION_ABANDONED_CHECKOUTS_DAYS,
        resolvedAlertsDays: e.RETENTION_RESOLVED_ALERTS_DAYS,
        batchSize: e.PRUNE_BATCH_SIZE,
        batchesPerRun: e.PRUNE_BATCHES_PER_RUN,
      },
    },
    alerts: { emails: [...new Set(alertEmails)], lowStockIps: e.LOW_STOCK_ALERT_IPS, lowStockGb: e.LOW_STOCK_ALERT_GB },
    ipReplacementPercent: e.IP_REPLACEMENT_PERCENT,
    redis: redisOf(e),
    metrics: metricsOf(e),
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `"${e.BRAND_NAME}" <no-reply@${new URL(appUrl).hostname}>`,
      poolSize: e.SMTP_POOL_SIZE,
    },
  };
}

/**
 * What production asks of a process that takes orders (the server, the job runner): a shared secret on PostgreSQL, and
 * real payments unless the sandbox is asked for.
 */
function productionProblems(e: Settings, role: ConfigRole, database: DatabaseTarget): string[] {
  const problems: string[] = [];
  if (e.NODE_ENV !== 'production' || role === 'migrate') return problems;
  if (database.kind === 'postgres' && e.AUTH_SECRET === undefined) {
    problems.push('AUTH_SECRET is required with PostgreSQL, so that every server instance signs sessions alike.');
  }
  // On any database: a mistyped DATABASE_URL must not turn a production shop into one on the embedded database that
  // takes test payments.
  if (!e.STRIPE_SECRET_KEY && !e.PAYMENTS_SANDBOX) {
    problems.push(
      'STRIPE_SECRET_KEY is required in production, because without it payments go to the sandbox and anyone with ' +
        'an account could pay with its test card (set PAYMENTS_SANDBOX=true to run the sandbox on purpose).',
    );
  }
  return problems;
}

/** Production on PostgreSQL sends its e-mails, with their sign-in and reset links, unless told to log them. */
function mailProblems(e: Settings, role: ConfigRole, database: DatabaseTarget): string[] {
  const takesOrders = role === 'server' || role === 'jobs';
  if (!takesOrders || database.kind !== 'postgres' || e.NODE_ENV !== 'production' || e.SMTP_URL || e.LOG_EMAILS) {
    return [];
  }
  return [
    'SMTP_URL is required in production with PostgreSQL, because without it e-mails, with their sign-in and reset ' +
      'links, are written to the log instead of sent (set LOG_EMAILS=true to do that on purpose).',
  ];
}

/** Settings that are each good but wrong together: two listeners on one port, a drain longer than the stop, half of Stripe. */
function consistencyProblems(e: Settings, role: ConfigRole, drainMs: number): string[] {
  const problems: string[] = [];
  if (role === 'server' && e.GATEWAY_ENABLED && e.GATEWAY_PORT !== 0 && e.GATEWAY_PORT === e.PORT) {
    problems.push(`GATEWAY_PORT must differ from PORT (both are ${e.PORT}), or set GATEWAY_ENABLED=false.`);
  }
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
  return problems;
}

/** What the pages show of the shop: its brand, links, and which sign-ins, payments and mails it runs. */
function siteOf(e: Settings, socialSignIn: SiteConfig['socialSignIn']): SiteConfig {
  return {
    brandName: e.BRAND_NAME,
    chatCommunityUrl: e.CHAT_COMMUNITY_URL,
    supportUrl: e.SUPPORT_URL ?? e.CHAT_COMMUNITY_URL,
    socialSignIn,
    sandboxPayments: !(e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET),
    mailsInLog: !e.SMTP_URL,
    connectionTest: e.GATEWAY_TEST_URL !== undefined,
    usageDomains: e.USAGE_DOMAINS,
    origin: new URL(appUrlOf(e)).origin,
  };
}

function authOf(
  e: Settings,
  database: DatabaseTarget,
  { adminEmails, google, discord }: Pick<AuthConfig, 'adminEmails' | 'discord'> & { google: OAuthClient | undefined },
): AuthConfig {
  return {
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
  };
}

/** Stripe with both its keys (the checks above refuse one alone); the sandbox otherwise. */
function paymentsOf(e: Settings): PaymentsConfig {
  const common = { checkoutRateLimitPerUser: e.CHECKOUT_RATE_LIMIT_PER_USER, currency: 'usd' as const };
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET) return { ...common, provider: 'sandbox' };
  return {
    ...common,
    provider: 'stripe',
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    apiUrl: e.STRIPE_API_URL,
    waitSeconds: e.STRIPE_TIMEOUT_S,
  };
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
  return loadOrExit((env) => loadConfig(env, role));
}
