// How the shop (config.ts) and a gateway on its own (gateway/config.ts) read their part of the one schema
// (config-schema.ts): a blank value counts as unset, and a bad value stops either process with the same sentence,
// "<VARIABLE> must be <what it accepts> (got <what it got>)."; a name that looks meant for the shop but is none of its
// settings stops it in production; `.env` is read first; and the few values both make of the settings.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { type GatewaySettings, SETTING_NAMES } from './config-schema.ts';

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
 * The settings `schema` reads from `env`, a blank value counting as unset; or, when a value is bad, one sentence for
 * each bad variable (its first refusal), in the schema's order. Only the schema's own variables are read.
 */
export function readSettings<S extends z.ZodObject>(
  schema: S,
  env: NodeJS.ProcessEnv,
): { settings: z.output<S>; problems?: undefined } | { settings?: undefined; problems: string[] } {
  const set: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') set[name] = value;
  }
  const parsed = schema.safeParse(set);
  if (parsed.success) return { settings: parsed.data };
  const problems = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0]);
    if (!problems.has(name)) problems.set(name, refusal(name, issue.message, set[name]));
  }
  return { problems: [...problems.values()] };
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
  const known = new Set(SETTING_NAMES);
  const sentences: string[] = [];
  for (const name of Object.keys(env)) {
    // A value is read only for a likely typo ending in _PORT, which a Kubernetes link's tcp:// value excuses.
    const meant = known.has(name) ? undefined : meantSetting(name, () => env[name]);
    if (meant !== undefined) sentences.push(`${name} is not a setting of the shop: did you mean ${meant}?`);
  }
  return sentences;
}

/**
 * For the command-line entry points: reads `.env`, then the configuration with `load`, or prints the sentence for each
 * bad variable and exits 1.
 */
export function loadOrExit<T>(load: (env: NodeJS.ProcessEnv) => T): T {
  try {
    loadEnvFile();
    const config = load(process.env);
    // In production they stopped the start (`load`); elsewhere a word is enough.
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

/** The database DATABASE_URL names, or the embedded one under DATA_DIR. */
export function databaseTarget(e: GatewaySettings): DatabaseTarget {
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

/** APP_URL, or the shop on this machine's PORT; as written (config.ts drops its trailing slashes). */
export function appUrlOf(e: Pick<GatewaySettings, 'APP_URL' | 'PORT'>): string {
  return e.APP_URL ?? `http://localhost:${e.PORT}`;
}

/** The shared store (REDIS_URL and its prefix), or undefined when each process counts alone. */
export function redisOf(e: GatewaySettings): { url: string; keyPrefix: string } | undefined {
  return e.REDIS_URL ? { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX } : undefined;
}

/** The Prometheus listener, apart from the public port; undefined when METRICS_PORT is 0. */
export function metricsOf(e: GatewaySettings): { host: string; port: number } | undefined {
  return e.METRICS_PORT === 0 ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT };
}
