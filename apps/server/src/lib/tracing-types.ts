// What lib/tracing.ts (always loaded) and lib/tracing-sdk.ts (loaded only with an OTLP endpoint) both speak of: the
// shape of a span's options and of the started SDK. Types only, so that neither file imports the other's types.

/** Whether a span stands for a call to another service (SMTP) or for work of the process itself (a job's run). */
export type SpanKindName = 'client' | 'internal';

export interface SpanOptions {
  kind?: SpanKindName;
  attributes?: Record<string, string | number | boolean | undefined>;
}

/** Modules the shop loads itself (bundled in a release, or imported before tracing started) and hands over to patch. */
export type InstrumentedModule = 'pg';

export interface Tracing {
  span<T>(name: string, options: SpanOptions, run: () => Promise<T>): Promise<T>;
  instrument(name: InstrumentedModule, moduleExports: unknown): void;
  /** The active span's ids, for each log line (pino's mixin). */
  logFields(): Record<string, string>;
  /** Exports the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}
