import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, Logger } from 'pino';

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that becomes pino's child logger (the request id bound to every line) only when the request logs
 * a line its level lets through. Fastify makes one child logger a request before any hook runs; pino's costs a new
 * object with its own bindings, about a microsecond of a small read, and most requests log nothing at `warn`. At `info`
 * every request logs (Fastify's request lines), so every request still gets its child, and its lines are unchanged.
 */
class RequestLogger {
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** pino's child logger, made the first time a line is let through or the logger is asked for more. */
  get #logger(): Logger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #enabled(method: Method): boolean {
    if (this.#child !== undefined) return this.#child.isLevelEnabled(method);
    const level = this.#options.level;
    if (level === undefined) return this.#parent.isLevelEnabled(method);
    const { values } = this.#parent.levels;
    return level !== 'silent' && (values[method] ?? 0) >= (values[level] ?? Number.POSITIVE_INFINITY);
  }

  get level(): LevelWithSilentOrString {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#logger.level = level;
  }

  #log(method: Method, args: unknown[]): void {
    if (!this.#enabled(method)) return;
    const logger = this.#logger;
    (logger[method] as (...line: unknown[]) => void).apply(logger, args);
  }

  // On the prototype, not one closure each a request.
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made lazily (above). */
export const lazyRequestLogger = (
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger =>
  // Fastify's null logger (logger: false, as in the tests) is its own child; anything else here is pino. The request
  // logger's methods take what pino's take (pino's overloads are its own types; each call is passed on as it is).
  'isLevelEnabled' in logger
    ? (new RequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger)
    : logger.child(bindings, options);
