// The standalone gateway's own configuration (`npm run gateway`, `node . gateway`). It reads only the variables the
// gateway uses, with the shop's defaults and the shop's refusals, in a few plain readers: neither zod nor the shop's
// configuration is loaded, which keeps a gateway on its own smaller (see docs/benchmarks.md), and a setting of the
// shop it never uses (AUTH_SECRET, SMTP_URL, Stripe) is neither required nor checked; only a mistyped name stops it
// in production, as it stops the shop. The server reads the same settings for the gateway inside it with its own
// schema (config.ts); config.test.ts holds the two readers to the same answers for the same environment.
import path from 'node:path';
import type { DatabaseTarget } from '../config.ts';
import { ConfigError, LOG_LEVELS, type LogLevel, loadEnvFile, refusal, strayVariables } from '../config-shared.ts';

/** The residential gateway's settings (ARCHITECTURE section 6), alone or inside the server. */
export interface GatewayConfig {
  host: string;
  port: number;
  /** Loopback and private ranges as targets: refused unless this is set (tests, closed networks). */
  allowPrivateTargets: boolean;
  /** How often metered bytes are written to the database. */
  flushMs: number;
  /** How long credentials and remaining data are reused before the database is asked again. */
  cacheMs: number;
  /**
   * Failed proxy authentications one source address (an IPv6 /64) may make in `windowMs`; past them it is refused, good
   * credentials too, until the window ends. Counted in Redis when set, so that every gateway counts together.
   */
  authFailures: { perIp: number; windowMs: number; redis: { url: string; keyPrefix: string } | undefined };
  /**
   * Open connections one source address (an IPv6 /64) may hold at once, authenticated or not; one more is closed at
   * once. Each connection holds a descriptor of the process (a tunnel two), shared with the web server and the database.
   */
  maxConnectionsPerIp: number;
  /** Connections arrive through a TCP load balancer that starts each with a PROXY protocol header (v1 or v2). */
  proxyProtocol: boolean;
  /** The provider every request goes through, or undefined for direct egress. */
  upstream: { url: string; usernameTemplate: string } | undefined;
  /** Where a customer whose data is used up buys more. */
  purchaseUrl: string;
}

/** What a gateway on its own runs with: its database, its stop, its metrics listener and the gateway's settings. */
export interface StandaloneGatewayConfig {
  logLevel: LogLevel;
  database: DatabaseTarget;
  /** Apply the migrations at start-up when some are pending. */
  migrateOnStart: boolean;
  shutdown: { timeoutSeconds: number };
  /** Metrics and health checks; undefined when METRICS_PORT is 0. */
  metrics: { host: string; port: number } | undefined;
  gateway: GatewayConfig;
}

const UPSTREAM_PLACEHOLDERS = ['username', 'country', 'COUNTRY', 'session', 'duration', 'hard', 'type'];

/**
 * Reads the environment once; a bad value throws a ConfigError with one sentence for each bad variable, naming it,
 * what it accepts and what it got. A blank value counts as unset, as in the shop's configuration.
 */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): StandaloneGatewayConfig {
  const problems: string[] = [];
  const read = (name: string) => (env[name] === '' ? undefined : env[name]);

  function wholeNumber(name: string, fallback: number, min: number, max: number, unit = '', note = ''): number {
    const value = read(name);
    if (value === undefined) return fallback;
    // Only spaces is refused, not read as 0 (Number(' ') is 0), as in the shop's configuration.
    const number = value.trim() === '' ? Number.NaN : Number(value);
    if (Number.isInteger(number) && number >= min && number <= max) return number;
    problems.push(refusal(name, `a whole number from ${min} to ${max}${unit}${note}`, value));
    return fallback;
  }

  function trueOrFalse(name: string, fallback: boolean): boolean {
    const value = read(name);
    if (value === undefined) return fallback;
    if (value === 'true' || value === '1' || value === 'yes') return true;
    if (value === 'false' || value === '0' || value === 'no') return false;
    problems.push(refusal(name, 'true or false', value));
    return fallback;
  }

  /** Text, trimmed, not blank and at most `max` characters; `what` is what it is ("a folder"). */
  function text(name: string, what: string, max: number): string | undefined {
    const value = read(name);
    if (value === undefined) return undefined;
    const trimmed = value.trim();
    if (trimmed !== '' && trimmed.length <= max) return trimmed;
    problems.push(refusal(name, trimmed === '' ? what : `${what} of at most ${max} characters`, value));
    return undefined;
  }

  function oneOf<const T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = read(name);
    if (value === undefined) return undefined;
    const known = values.find((candidate) => candidate === value);
    if (known === undefined) problems.push(refusal(name, `one of ${values.join(', ')}`, value));
    return known;
  }

  /** An absolute http:// or https:// URL, trimmed. */
  function httpUrl(name: string, example: string): string | undefined {
    const value = read(name);
    if (value === undefined) return undefined;
    const trimmed = value.trim();
    if (/^https?:\/\//i.test(trimmed) && URL.canParse(trimmed)) return trimmed.replace(/[\t\n\r]/g, '');
    problems.push(refusal(name, `an absolute http:// or https:// URL such as ${example}`, value));
    return undefined;
  }

  function matching(name: string, accepts: string, test: (value: string) => boolean): string | undefined {
    const value = read(name);
    if (value === undefined || test(value)) return value;
    problems.push(refusal(name, accepts, value));
    return undefined;
  }

  // In the order of the shop's schema, so that several bad values are refused in the same words and order.
  // Production unless told otherwise, as the shop: there a mistyped variable stops the start (below).
  const production = (oneOf('NODE_ENV', ['development', 'production', 'test']) ?? 'production') === 'production';
  const listen = 'an address to listen on, such as 0.0.0.0';
  const host = text('HOST', listen, 255) ?? '127.0.0.1';
  const port = wholeNumber('PORT', 3000, 0, 65_535, '', ' (0 picks a free port)');
  const appUrl = httpUrl('APP_URL', 'https://shop.example.com') ?? `http://localhost:${port}`;
  const logLevel = oneOf('LOG_LEVEL', LOG_LEVELS) ?? 'info';
  const databaseUrl = matching('DATABASE_URL', 'a postgres:// URL, pglite:<directory> or memory://', (value) =>
    /^(postgres|postgresql):\/\/.+|^pglite:.+|^memory:\/\/$/.test(value),
  );
  const pool = {
    poolSize: wholeNumber('DATABASE_POOL_SIZE', 10, 1, 1000),
    connectTimeoutMs: wholeNumber(
      'DATABASE_CONNECT_TIMEOUT_MS',
      10_000,
      0,
      600_000,
      ' milliseconds',
      ', 0 for no limit',
    ),
    statementTimeoutMs: wholeNumber(
      'DATABASE_STATEMENT_TIMEOUT_MS',
      30_000,
      0,
      3_600_000,
      ' milliseconds',
      ', 0 for no limit',
    ),
  };
  const migrateOnStart = trueOrFalse('MIGRATE_ON_START', true);
  const dataDir = text('DATA_DIR', 'a folder', 4096) ?? './data';
  const timeoutSeconds = wholeNumber('SHUTDOWN_TIMEOUT_S', 10, 1, 3600, ' seconds');
  const gatewayPort = wholeNumber('GATEWAY_PORT', 8080, 0, 65_535, '', ' (0 picks a free port)');
  const gatewayHost = text('GATEWAY_HOST', listen, 255) ?? host;
  const allowPrivateTargets = trueOrFalse('GATEWAY_ALLOW_PRIVATE', false);
  const flushMs = wholeNumber('GATEWAY_FLUSH_MS', 2000, 100, 60_000, ' milliseconds');
  const cacheMs = wholeNumber('GATEWAY_CACHE_MS', 5000, 0, 60_000, ' milliseconds');
  const perIp = wholeNumber('GATEWAY_AUTH_FAILURES_PER_IP', 20, 1, 1_000_000, ' failed proxy authentications');
  const maxConnectionsPerIp = wholeNumber('GATEWAY_MAX_CONNECTIONS_PER_IP', 500, 1, 1_000_000, ' open connections');
  const proxyProtocol = trueOrFalse('GATEWAY_PROXY_PROTOCOL', false);
  const upstreamUrl = matching(
    'RESIDENTIAL_UPSTREAM_URL',
    'an http://, https:// or socks5:// proxy URL such as http://user:pass@gate.provider.example:7777',
    (value) => /^(https?|socks5h?|socks4a?|socks):\/\/[^/\s]+/.test(value) && URL.canParse(value),
  );
  const usernameTemplate = usernameTemplateOf(read('RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE'), problems);
  const redisUrl = matching(
    'REDIS_URL',
    'a redis:// or rediss:// URL such as redis://cache.example.com:6379',
    (value) => /^rediss?:\/\/.+/.test(value),
  );
  const redisKeyPrefix = text('REDIS_KEY_PREFIX', 'a prefix', 100) ?? 'storefront:';
  const metricsHost = text('METRICS_HOST', 'an address to listen on, such as 127.0.0.1', 255) ?? '127.0.0.1';
  const metricsPort = wholeNumber('METRICS_PORT', 9464, 0, 65_535, '', ', 0 to turn the metrics listener off');
  // Read by the OpenTelemetry SDK itself (lib/tracing.ts), checked here so that a mistake stops the start with a sentence.
  httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://otel-collector:4318');
  oneOf('OTEL_EXPORTER_OTLP_PROTOCOL', ['http/protobuf', 'http/json']);
  text('OTEL_SERVICE_NAME', 'a service name', 255);
  if (production) problems.push(...strayVariables(env));
  if (problems.length > 0) throw new ConfigError(problems);

  const purchaseUrl = `${appUrl.replace(/\/+$/, '')}/dashboard/purchase`;
  return {
    logLevel,
    database: databaseTarget(databaseUrl, dataDir, pool),
    migrateOnStart,
    shutdown: { timeoutSeconds },
    metrics: metricsPort === 0 ? undefined : { host: metricsHost, port: metricsPort },
    gateway: {
      host: gatewayHost,
      port: gatewayPort,
      allowPrivateTargets,
      flushMs,
      cacheMs,
      authFailures: {
        perIp,
        windowMs: 10 * 60_000,
        redis: redisUrl ? { url: redisUrl, keyPrefix: redisKeyPrefix } : undefined,
      },
      maxConnectionsPerIp,
      proxyProtocol,
      upstream: upstreamUrl ? { url: upstreamUrl, usernameTemplate } : undefined,
      purchaseUrl,
    },
  };
}

/** The provider's username for a targeted line: trimmed, at most 300 characters, only the known placeholders. */
function usernameTemplateOf(value: string | undefined, problems: string[]): string {
  const fallback = '{username}-country-{country}-session-{session}-duration-{duration}[-{hard}]';
  if (value === undefined) return fallback;
  const template = value.trim();
  const name = 'RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE';
  if (template.length > 300) problems.push(refusal(name, 'a template of at most 300 characters', value));
  else if (
    [...template.matchAll(/\{([^}]*)\}/g)].some(([, placeholder]) => !UPSTREAM_PLACEHOLDERS.includes(placeholder ?? ''))
  )
    problems.push(
      refusal(
        name,
        'a template using only the placeholders {username}, {country}, {COUNTRY}, {session}, {duration}, {hard} and {type}',
        value,
      ),
    );
  else return template;
  return fallback;
}

function databaseTarget(
  url: string | undefined,
  dataDir: string,
  pool: { poolSize: number; connectTimeoutMs: number; statementTimeoutMs: number },
): DatabaseTarget {
  if (url === undefined) return { kind: 'pglite', dataDir: path.resolve(dataDir, 'pglite'), chosenBy: 'DATA_DIR' };
  if (url === 'memory://') return { kind: 'pglite', dataDir: undefined, chosenBy: 'DATABASE_URL' };
  if (url.startsWith('pglite:')) {
    return { kind: 'pglite', dataDir: path.resolve(url.slice('pglite:'.length)), chosenBy: 'DATABASE_URL' };
  }
  return { kind: 'postgres', connectionString: url, ...pool };
}

/** For `npm run gateway` and `node . gateway`: reads `.env`, then the settings, or prints the refusal and exits 1. */
export function loadGatewayConfigOrExit(): StandaloneGatewayConfig {
  try {
    loadEnvFile();
    const config = loadGatewayConfig(process.env);
    // In production they stopped the start (loadGatewayConfig); elsewhere a word is enough, as in the shop.
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
