import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '@storefront/contract';
import { z } from 'zod';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const price = z.coerce
  .number({ error: 'must be a number of US dollars, such as 2.50' })
  .positive('must be greater than 0')
  .max(100_000, 'must be at most 100000');

const UPSTREAM_PLACEHOLDERS = ['username', 'country', 'COUNTRY', 'session', 'duration', 'hard', 'type'];

const databaseUrl = z
  .string()
  .refine(
    (value) => /^(postgres|postgresql):\/\/.+/.test(value) || value.startsWith('pglite:') || value === 'memory://',
    'must be a postgres:// URL, pglite:<directory> or memory://',
  );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  APP_URL: z.url({ error: 'must be an absolute URL such as https://shop.example.com' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanString.default(false),
  DATABASE_URL: databaseUrl.optional(),
  DATABASE_PREPARED_STATEMENTS: z.coerce.number().int().min(0).max(10_000).default(200),
  DATA_DIR: z.string().min(1).default('./data'),
  SEED_DEMO: booleanString.default(true),
  WEB_DIST_DIR: z.string().min(1).default(path.resolve(serverRoot, '../web/dist')),
  BRAND_NAME: z.string().trim().min(1).max(60).default(DEFAULT_SITE_CONFIG.brandName),
  CHAT_COMMUNITY_URL: z.url().default(DEFAULT_SITE_CONFIG.chatCommunityUrl),
  SUPPORT_URL: z.url().optional(),
  PRICING_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  PRICE_ISP_PROXIES: price.default(2.5),
  PRICE_PK1_ISP_PROXIES: price.default(2.5),
  PRICE_RESIDENTIAL_PROXIES: price.default(5),
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  GATEWAY_ENABLED: booleanString.default(true),
  GATEWAY_HOST: z.string().min(1).optional(),
  GATEWAY_ALLOW_PRIVATE: booleanString.default(false),
  GATEWAY_FLUSH_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  GATEWAY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  RESIDENTIAL_UPSTREAM_URL: z
    .url({ error: 'must be a proxy URL such as http://user:pass@gate.provider.example:7777' })
    .refine(
      (value) => /^(https?|socks5h?|socks4a?|socks):\/\//.test(value),
      'must be an http://, https:// or socks5:// proxy URL',
    )
    .optional(),
  RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .refine(
      (value) => [...value.matchAll(/\{([^}]*)\}/g)].every(([, name]) => UPSTREAM_PLACEHOLDERS.includes(name ?? '')),
      `may use only the placeholders {username}, {country}, {COUNTRY}, {session}, {duration}, {hard} and {type}`,
    )
    .default('{username}-country-{country}-session-{session}-duration-{duration}[-{hard}]'),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters (try: openssl rand -base64 32)').optional(),
  ADMIN_EMAILS: z.string().optional(),
  SMTP_URL: z
    .string()
    .refine((value) => /^smtps?:\/\/.+/.test(value), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).optional(),
  LOG_EMAILS: booleanString.default(false),
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  GOOGLE_DISCOVERY_URL: z.url().default('https://accounts.google.com/.well-known/openid-configuration'),
  DISCORD_CLIENT_ID: z.string().trim().min(1).optional(),
  DISCORD_CLIENT_SECRET: z.string().trim().min(1).optional(),
  AUTH_RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(600),
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(30),
  AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).max(1_000_000).default(8),
  AUTH_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(100),
  JOBS_INTERVAL_S: z.coerce.number().int().min(0).max(86_400).default(60),
  CHECKOUT_RATE_LIMIT_PER_USER: z.coerce.number().int().min(1).max(1_000_000).default(20),
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  REDIS_URL: z
    .string()
    .refine((value) => /^rediss?:\/\/.+/.test(value), 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().trim().min(1).max(100).default('storefront:'),
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .refine((value) => /^(sk|rk)_(test|live)_\w+$/.test(value), 'must be a Stripe secret key (sk_live_… or sk_test_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .refine((value) => value.startsWith('whsec_'), 'must be a webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_API_URL: z.url().optional(),
});

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string | undefined }
  | {
      kind: 'postgres';
      connectionString: string;
      /** How many statements each connection keeps prepared (0 = none). */
      preparedStatements: number;
    };

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  appUrl: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  trustProxy: boolean;
  database: DatabaseTarget;
  seedDemo: boolean;
  webDistDir: string;
  site: SiteConfig;
  /** How long GET /api/pricing reuses its answer (0 = never). */
  pricingCacheMs: number;
  /** Requests a personal API key may make a minute (counted in the rate-limit store). */
  apiKeyRateLimitPerMinute: number;
  /** How long an instance answers reads from its memory of a session (0 = always ask the database). */
  sessionCacheMs: number;
  /** Unit prices in cents: per IP per month (ISP, PK1) and per GB (residential). */
  pricesCents: { isp_proxies: number; pk1_isp_proxies: number; residential_proxies: number };
  /** host:port customers put in their tools for residential proxies. */
  gatewayEndpoint: string;
  gateway: GatewayConfig;
  auth: AuthConfig;
  mail: { smtpUrl: string | undefined; from: string };
  payments: PaymentsConfig;
  /** Shared store of the rate-limit counters (sign-in, checkout) when several instances run; else each keeps its own. */
  redis: { url: string; keyPrefix: string } | undefined;
  /** How often the periodic job runs in the server process (renewals, expiries, reminders, e-mails); 0 = never. */
  jobsIntervalSeconds: number;
}

/** The residential gateway (ARCHITECTURE section 6). */
export interface GatewayConfig {
  /** Whether the server process runs the gateway too (`npm run gateway` runs it alone). */
  enabled: boolean;
  host: string;
  port: number;
  /** Loopback and private ranges as targets: refused unless this is set (tests, closed networks). */
  allowPrivateTargets: boolean;
  /** How often metered bytes are written to the database. */
  flushMs: number;
  /** How long credentials and remaining data are reused before the database is asked again. */
  cacheMs: number;
  /** The provider every request goes through, or undefined for direct egress. */
  upstream: { url: string; usernameTemplate: string } | undefined;
  /** Where a customer whose data is used up buys more. */
  purchaseUrl: string;
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

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

function databaseTarget(url: string | undefined, dataDir: string, preparedStatements: number): DatabaseTarget {
  if (url === undefined) return { kind: 'pglite', dataDir: path.resolve(dataDir, 'pglite') };
  if (url === 'memory://') return { kind: 'pglite', dataDir: undefined };
  if (url.startsWith('pglite:')) return { kind: 'pglite', dataDir: path.resolve(url.slice('pglite:'.length)) };
  return { kind: 'postgres', connectionString: url, preparedStatements };
}

const toCents = (dollars: number) => Math.round(dollars * 100);

/** Reads the environment once; a bad value throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankAsUnset = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const google = oauthClient('GOOGLE', e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET, problems);
  const discord = oauthClient('DISCORD', e.DISCORD_CLIENT_ID, e.DISCORD_CLIENT_SECRET, problems);
  const database = databaseTarget(e.DATABASE_URL, e.DATA_DIR, e.DATABASE_PREPARED_STATEMENTS);
  if (database.kind === 'postgres' && e.AUTH_SECRET === undefined && e.NODE_ENV === 'production') {
    problems.push('AUTH_SECRET: is required with PostgreSQL, so that every server instance signs sessions alike');
  }
  const adminEmails = (e.ADMIN_EMAILS ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  for (const email of adminEmails) {
    if (!z.email().safeParse(email).success) problems.push(`ADMIN_EMAILS: "${email}" is not an e-mail address`);
  }
  if (database.kind === 'postgres' && e.NODE_ENV === 'production' && !e.SMTP_URL && !e.LOG_EMAILS) {
    problems.push(
      'SMTP_URL: is required in production with PostgreSQL: without it e-mails, with their sign-in and reset links, ' +
        'are written to the log instead of sent (set LOG_EMAILS=true to do that on purpose)',
    );
  }
  if (e.GATEWAY_ENABLED && e.GATEWAY_PORT !== 0 && e.GATEWAY_PORT === e.PORT) {
    problems.push('GATEWAY_PORT: must differ from PORT (or set GATEWAY_ENABLED=false)');
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    problems.push('STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY, or paid orders would never be delivered');
  }
  if (!e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET) {
    problems.push('STRIPE_SECRET_KEY: is required with STRIPE_WEBHOOK_SECRET');
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
    seedDemo: e.SEED_DEMO,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    site: {
      brandName: e.BRAND_NAME,
      chatCommunityUrl: e.CHAT_COMMUNITY_URL,
      supportUrl: e.SUPPORT_URL ?? e.CHAT_COMMUNITY_URL,
      socialSignIn: { google: google !== undefined, discord: discord !== undefined },
      sandboxPayments: !(e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET),
    },
    pricingCacheMs: e.PRICING_CACHE_MS,
    apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT_PER_MINUTE,
    sessionCacheMs: e.SESSION_CACHE_MS,
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
    redis: e.REDIS_URL ? { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX } : undefined,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? `"${e.BRAND_NAME}" <no-reply@${new URL(appUrlOf(e)).hostname}>` },
  };
}

function appUrlOf(e: { APP_URL?: string | undefined; PORT: number }): string {
  return e.APP_URL ?? `http://localhost:${e.PORT}`;
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
    problems.push(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET: set both to offer this sign-in, or neither`);
  }
  return undefined;
}

/** For the command-line entry points: the configuration, or the message naming every bad variable and exit code 1. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
