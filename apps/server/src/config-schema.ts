// Every setting of the shop in one zod schema: `envSchema`, which the server, the job runner and migrate read
// (config.ts), and `gatewaySchema`, the part of it a gateway on its own reads (gateway/config.ts), the same objects
// picked by name. Every schema carries its own refusal: the phrase of what it accepts, which becomes the sentence
// "<VARIABLE> must be <what it accepts> (got <what it got>)" (config-shared.ts). No schema library's wording reaches
// the operator.
import { DEFAULT_SITE_CONFIG } from '@storefront/contract/site.ts';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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

/**
 * Every setting, by its variable: what the server, the job runner and migrate read (config.ts). docs/configuration.md
 * and .env.example are held to it by config-docs.test.ts. Several bad values are refused in this order.
 */
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
  GATEWAY_SLICE_MB: wholeNumber(1, 1024, ' MB').default(16),
  GATEWAY_AUTH_FAILURES_PER_IP: wholeNumber(1, 1_000_000, ' failed proxy authentications').default(20),
  GATEWAY_MAX_CONNECTIONS_PER_IP: wholeNumber(1, 1_000_000, ' open connections').default(500),
  GATEWAY_PROXY_PROTOCOL: booleanString.default(false),
  USAGE_DOMAINS: booleanString.default(true),
  GATEWAY_TEST_URL: httpUrl('https://echo.example.com/ip').optional(),
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
  IP_REPLACEMENT_PERCENT: wholeNumber(0, 100, ' percent', ', 0 to turn replacements off').default(10),
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
  JOBS_BATCH_SIZE: wholeNumber(1, 1_000_000, ' orders').default(5000),
  JOBS_EMAIL_BATCH_SIZE: wholeNumber(1, 1_000_000, ' e-mails').default(5000),
  SMTP_POOL_SIZE: wholeNumber(1, 100, ' connections').default(5),
  RETENTION_SENT_EMAILS_DAYS: wholeNumber(1, 36_500, ' days').default(30),
  // Longer than Stripe retries an event (3 days) and lets one be resent by hand (30 days): a replay stays a duplicate.
  RETENTION_WEBHOOK_EVENTS_DAYS: wholeNumber(31, 36_500, ' days').default(45),
  RETENTION_EXPIRED_SESSIONS_DAYS: wholeNumber(1, 36_500, ' days').default(7),
  RETENTION_ABANDONED_CHECKOUTS_DAYS: wholeNumber(1, 36_500, ' days').default(7),
  RETENTION_RESOLVED_ALERTS_DAYS: wholeNumber(1, 36_500, ' days').default(90),
  PRUNE_BATCH_SIZE: wholeNumber(10, 100_000, ' rows').default(1000),
  PRUNE_BATCHES_PER_RUN: wholeNumber(1, 100_000, ' batches of each table').default(50),
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

/**
 * The settings a gateway on its own reads: its own, its database, its stop, its metrics listener, the failure counter's
 * Redis and traces, and HOST, PORT and APP_URL for their defaults. The shop's other settings (Stripe, mail, sign-in)
 * it neither needs nor checks.
 */
export const gatewaySchema = envSchema.pick({
  NODE_ENV: true,
  HOST: true,
  PORT: true,
  APP_URL: true,
  LOG_LEVEL: true,
  DATABASE_URL: true,
  DATABASE_POOL_SIZE: true,
  DATABASE_CONNECT_TIMEOUT_MS: true,
  DATABASE_STATEMENT_TIMEOUT_MS: true,
  MIGRATE_ON_START: true,
  DATA_DIR: true,
  SHUTDOWN_TIMEOUT_S: true,
  GATEWAY_PORT: true,
  GATEWAY_HOST: true,
  GATEWAY_ALLOW_PRIVATE: true,
  GATEWAY_FLUSH_MS: true,
  GATEWAY_CACHE_MS: true,
  GATEWAY_SLICE_MB: true,
  GATEWAY_AUTH_FAILURES_PER_IP: true,
  GATEWAY_MAX_CONNECTIONS_PER_IP: true,
  GATEWAY_PROXY_PROTOCOL: true,
  USAGE_DOMAINS: true,
  RESIDENTIAL_UPSTREAM_URL: true,
  RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE: true,
  REDIS_URL: true,
  REDIS_KEY_PREFIX: true,
  METRICS_HOST: true,
  METRICS_PORT: true,
  OTEL_EXPORTER_OTLP_ENDPOINT: true,
  OTEL_EXPORTER_OTLP_PROTOCOL: true,
  OTEL_SERVICE_NAME: true,
});

export type Settings = z.output<typeof envSchema>;
export type GatewaySettings = z.output<typeof gatewaySchema>;

/** Every setting's variable, in the schema's order: what a mistyped name is measured against (config-shared.ts). */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);
