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
