// The residential gateway's configuration: its part of the shop's one schema (`gatewaySchema`, config-schema.ts), read
// alone by a gateway on its own (`npm run gateway`, `node . gateway`) and with the rest by the server that runs one
// (config.ts). A gateway on its own reads only its own variables, in the shop's words: a setting of the shop it never
// uses (AUTH_SECRET, SMTP_URL, Stripe) is neither required nor checked; only a mistyped name stops it in production, as
// it stops the shop. It loads neither the shop's configuration (config.ts) nor any of its modules.
import { type GatewaySettings, gatewaySchema, type LogLevel } from '../config-schema.ts';
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
} from '../config-shared.ts';

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
  /** KB of an account's data a gateway reserves at a time, beyond what it has carried and not yet written. */
  sliceKb: number;
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
  /** Whether targets' domains are recorded in customers' usage analytics (each customer may also switch it off). */
  usageDomains: boolean;
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

/** The gateway's settings as read (by a gateway on its own, or by the server with all of its own). */
export function gatewayConfigOf(e: GatewaySettings): GatewayConfig {
  return {
    host: e.GATEWAY_HOST ?? e.HOST,
    port: e.GATEWAY_PORT,
    allowPrivateTargets: e.GATEWAY_ALLOW_PRIVATE,
    flushMs: e.GATEWAY_FLUSH_MS,
    cacheMs: e.GATEWAY_CACHE_MS,
    sliceKb: e.GATEWAY_SLICE_MB * 1024,
    authFailures: { perIp: e.GATEWAY_AUTH_FAILURES_PER_IP, windowMs: 10 * 60_000, redis: redisOf(e) },
    maxConnectionsPerIp: e.GATEWAY_MAX_CONNECTIONS_PER_IP,
    proxyProtocol: e.GATEWAY_PROXY_PROTOCOL,
    usageDomains: e.USAGE_DOMAINS,
    upstream: e.RESIDENTIAL_UPSTREAM_URL
      ? { url: e.RESIDENTIAL_UPSTREAM_URL, usernameTemplate: e.RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE }
      : undefined,
    purchaseUrl: `${appUrlOf(e).replace(/\/+$/, '')}/dashboard/purchase`,
  };
}

/**
 * Reads the environment once; a bad value throws a ConfigError with one sentence for each bad variable, naming it,
 * what it accepts and what it got, and in production one for each mistyped name besides. A blank value counts as unset.
 */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): StandaloneGatewayConfig {
  const { settings, problems = [] } = readSettings(gatewaySchema, env);
  // Production unless NODE_ENV says development or test, as the shop: there a mistyped variable stops the start too.
  const production = settings
    ? settings.NODE_ENV === 'production'
    : !['development', 'test'].includes(env.NODE_ENV ?? '');
  if (production) problems.push(...strayVariables(env));
  if (!settings || problems.length > 0) throw new ConfigError(problems);
  return {
    logLevel: settings.LOG_LEVEL,
    database: databaseTarget(settings),
    migrateOnStart: settings.MIGRATE_ON_START,
    shutdown: { timeoutSeconds: settings.SHUTDOWN_TIMEOUT_S },
    metrics: metricsOf(settings),
    gateway: gatewayConfigOf(settings),
  };
}

/** For `npm run gateway` and `node . gateway`: reads `.env`, then the settings, or prints the refusal and exits 1. */
export function loadGatewayConfigOrExit(): StandaloneGatewayConfig {
  return loadOrExit(loadGatewayConfig);
}
