// Traces over OpenTelemetry, only when an OTLP endpoint is set (docs/decisions/2026-11-25-traces.md). This file imports
// nothing of OpenTelemetry: the SDK (lib/tracing-sdk.ts and every @opentelemetry package) is loaded by the dynamic
// import below, so that a process without OTEL_EXPORTER_OTLP_ENDPOINT never loads it, and a span costs it one check.
import type { InstrumentedModule, SpanOptions, Tracing } from './tracing-types.ts';

let active: Tracing | undefined;

/**
 * Whether traces are asked for: an OTLP endpoint (the base one, or the one for traces) and the SDK not switched off,
 * the two ways the OpenTelemetry specification gives to configure it.
 */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

/**
 * Starts the OpenTelemetry SDK when traces are asked for, before the process opens its database or builds its app (the
 * HTTP and database instrumentations patch what those use); undefined otherwise. `serviceName` is the default of
 * `service.name`: `storefront` for the server and the job runner, `storefront-gateway` for a gateway on its own.
 */
export async function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env) {
  if (!tracingWanted(env)) return undefined;
  if (active) return active;
  const { startSdk } = await import('./tracing-sdk.ts');
  active = await startSdk(serviceName);
  return active;
}

/** Runs `run` in a span of its own when traces are on; runs it as it is otherwise. */
export function traced<T>(name: string, options: SpanOptions, run: () => Promise<T>): Promise<T> {
  return active ? active.span(name, options, run) : run();
}

/** Hands a module the process loaded itself to the instrumentations (node-postgres): a no-op without traces. */
export function instrumentModule(name: InstrumentedModule, moduleExports: unknown): void {
  active?.instrument(name, moduleExports);
}

/**
 * pino options that put the active trace's ids (`trace_id`, `span_id`, `trace_flags`, as OpenTelemetry's pino
 * instrumentation names them) on every log line; none without traces, so a log line costs nothing more.
 */
export function tracingLogOptions(): { mixin?: () => Record<string, string> } {
  const tracing = active;
  return tracing ? { mixin: () => tracing.logFields() } : {};
}

/** Stops tracing; for a shutdown list (`{ name: 'traces', close: stopTracing }`): exports the last spans. */
export async function stopTracing(): Promise<void> {
  const tracing = active;
  active = undefined;
  await tracing?.shutdown();
}
