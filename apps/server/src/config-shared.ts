// What the shop's configuration (config.ts, zod) and the standalone gateway's (gateway/config.ts, plain code) share,
// without loading zod: the refusal in words, `.env`, and the log levels. A bad value stops either process with the same
// sentence: "<VARIABLE> must be <what it accepts> (got <what it got>)."
import { existsSync } from 'node:fs';
import path from 'node:path';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(
      problems.length === 1
        ? `The configuration was refused: ${problems[0]}`
        : `The configuration was refused:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Settings whose value is a secret, or a URL that may carry a password: never repeated whole in a refusal. */
const SECRET = /SECRET|PASSWORD|TOKEN|_KEY$/;
const MAY_HOLD_PASSWORD = /_URL$/;

/** What a refusal repeats of a bad value: the value, less any password or secret. */
function shown(name: string, value: string): string {
  if (SECRET.test(name)) return `a value of ${value.length} characters`;
  if (MAY_HOLD_PASSWORD.test(name)) {
    // Up to the last @: a password that breaks the URL may hold / ? # or @ itself.
    const withoutPassword = value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):.*@/i, '$1:***@');
    return JSON.stringify(withoutPassword.length > 120 ? `${withoutPassword.slice(0, 120)}…` : withoutPassword);
  }
  return JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);
}

/** The sentence refusing a variable: its name, what it accepts and what it got (when it was set). */
export function refusal(name: string, accepts: string, value: string | undefined): string {
  return `${name} must be ${accepts}${value === undefined ? '' : ` (got ${shown(name, value)})`}.`;
}

/**
 * Reads `.env` from the working folder into the environment when it exists (Node's own loader). A variable already in
 * the environment wins over the file.
 */
export function loadEnvFile(file = '.env'): string | undefined {
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return path.resolve(file);
}

/** Every setting of the shop, by its variable: the same names as config.ts's schema (config.test.ts checks). */
export const SETTING_NAMES = [
  'NODE_ENV',
  'HOST',
  'PORT',
  'APP_URL',
  'LOG_LEVEL',
  'TRUST_PROXY',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'MIGRATE_ON_START',
  'DATA_DIR',
  'SEED_DEMO',
  'WEB_DIST_DIR',
  'SHUTDOWN_DRAIN_MS',
  'SHUTDOWN_TIMEOUT_S',
  'BRAND_NAME',
  'CHAT_COMMUNITY_URL',
  'SUPPORT_URL',
  'PRICING_CACHE_MS',
  'PRICE_ISP_PROXIES',
  'PRICE_PK1_ISP_PROXIES',
  'PRICE_RESIDENTIAL_PROXIES',
  'GATEWAY_PORT',
  'GATEWAY_ENABLED',
  'GATEWAY_HOST',
  'GATEWAY_ALLOW_PRIVATE',
  'GATEWAY_FLUSH_MS',
  'GATEWAY_CACHE_MS',
  'GATEWAY_AUTH_FAILURES_PER_IP',
  'GATEWAY_MAX_CONNECTIONS_PER_IP',
  'GATEWAY_PROXY_PROTOCOL',
  'RESIDENTIAL_UPSTREAM_URL',
  'RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE',
  'AUTH_SECRET',
  'ADMIN_EMAILS',
  'ALERT_EMAILS',
  'LOW_STOCK_ALERT_IPS',
  'LOW_STOCK_ALERT_GB',
  'SMTP_URL',
  'MAIL_FROM',
  'LOG_EMAILS',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'GOOGLE_DISCOVERY_URL',
  'DISCORD_CLIENT_ID',
  'DISCORD_CLIENT_SECRET',
  'AUTH_RATE_LIMIT_WINDOW_S',
  'AUTH_RATE_LIMIT_PER_IP',
  'AUTH_RATE_LIMIT_PER_EMAIL',
  'AUTH_RATE_LIMIT_PER_ACCOUNT',
  'JOBS_INTERVAL_S',
  'CHECKOUT_RATE_LIMIT_PER_USER',
  'API_KEY_RATE_LIMIT_PER_MINUTE',
  'REDIS_URL',
  'REDIS_KEY_PREFIX',
  'METRICS_HOST',
  'METRICS_PORT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_SERVICE_NAME',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_URL',
  'STRIPE_TIMEOUT_S',
  'PAYMENTS_SANDBOX',
] as const;

// Others' variables that a shell, npm, Node, the system, a container or compose.yaml (.env is also compose's) put
// beside ours, and Google Cloud's own (compared in upper case).
const OTHERS =
  /^(PATH|HOME|USER|LOGNAME|SHELL|SHLVL|PWD|OLDPWD|TERM|COLORTERM|LANG|LANGUAGE|TZ|HOSTNAME|OS|TMPDIR|EDITOR|CI|DEBUG|NODE|INIT_CWD|GIT_COMMIT|SHOP_B_PORT|GOOGLE_APPLICATION_CREDENTIALS|_)$|^(NODE_|NPM_|OTEL_|PG|LC_|XDG_|SSH_|POSTGRES_|COMPOSE_|DOCKER_|VITEST|TEST_|GOOGLE_CLOUD_)/;
// Kubernetes' service links (REDIS_SERVICE_HOST, REDIS_PORT=tcp://…) share our prefixes and are no typo; a plain
// METRIC_PORT=9470 is one.
const SERVICE_LINK = /_(SERVICE_HOST|SERVICE_PORT(_\w+)?|PORT_\d+_(TCP|UDP|SCTP)(_\w+)?)$/;
const SERVICE_LINK_PORT = /^(tcp|udp|sctp):\/\//;
// Prefixes of ours that other programs use as much (APP_ENV, API_KEY, LOG_FORMAT, Heroku's WEB_CONCURRENCY): a name
// under them is taken for a typo only within two edits of a setting.
const COMMON_PREFIXES = ['APP_', 'API_', 'LOG_', 'DATA_', 'WEB_'];

/** The number of single-character edits between two names. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

const PREFIXES = [
  ...new Set(SETTING_NAMES.filter((name) => name.includes('_')).map((name) => `${name.split('_')[0]}_`)),
].filter((prefix) => !OTHERS.test(prefix) && !COMMON_PREFIXES.includes(prefix));

/** The setting fewest edits away from `name`, among `settings`. */
function nearest(name: string, settings: readonly string[]): { setting: string; edits: number } {
  let best = { setting: '', edits: Number.POSITIVE_INFINITY };
  for (const setting of settings) {
    const edits = distance(name, setting);
    if (edits < best.edits) best = { setting, edits };
  }
  return best;
}

/** The setting `name` was likely meant to be, or undefined when it does not look meant for the shop. */
function meantSetting(name: string, readValue: () => string | undefined): string | undefined {
  const upper = name.toUpperCase();
  if (OTHERS.test(upper)) return undefined;
  const closest = nearest(upper, SETTING_NAMES);
  const prefix = PREFIXES.find((candidate) => upper.startsWith(candidate));
  if (closest.edits > 2 && prefix === undefined) return undefined;
  if (SERVICE_LINK.test(upper) || (upper.endsWith('_PORT') && SERVICE_LINK_PORT.test(readValue() ?? '')))
    return undefined;
  if (closest.edits <= 2 || prefix === undefined) return closest.setting;
  return nearest(
    upper,
    SETTING_NAMES.filter((setting) => setting.startsWith(prefix)),
  ).setting;
}

/**
 * A sentence for each variable that looks meant for the shop but is none of its settings (within two edits of one,
 * or under one of its prefixes), naming the setting it likely meant: a typo must not leave a setting at its default
 * unseen.
 */
export function strayVariables(env: Record<string, string | undefined>): string[] {
  const known = new Set<string>(SETTING_NAMES);
  const sentences: string[] = [];
  for (const name of Object.keys(env)) {
    // A value is read only for a likely typo ending in _PORT, which a Kubernetes link's tcp:// value excuses.
    const meant = known.has(name) ? undefined : meantSetting(name, () => env[name]);
    if (meant !== undefined) sentences.push(`${name} is not a setting of the shop: did you mean ${meant}?`);
  }
  return sentences;
}
