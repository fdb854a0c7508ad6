// The OpenTelemetry Node SDK, loaded by lib/tracing.ts only when an OTLP endpoint is set; it reads the OTEL_* variables.
// Instrumentations are applied to the objects the shop uses (Fastify's diagnostics channel, undici's channels, node:http
// patched in place, the pg module handed over by instrumentModule): the SDK's require hooks never see ES module
// imports loaded before tracing starts, nor a bundled release.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import {
  type Attributes,
  context,
  type DiagLogger,
  DiagLogLevel,
  diag,
  isSpanContextValid,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { buildInfo } from '../lifecycle/release.ts';
import { redactQuery, redactUrl } from './log-redaction.ts';
import type { InstrumentedModule, SpanOptions, Tracing } from './tracing-types.ts';

/**
 * Requests that are not worth a trace: Prometheus' scrapes (the metrics listener) and the load balancer's health probes,
 * every few seconds each, which would bury the customers' requests.
 */
const UNTRACED_PATHS = new Set(['/metrics', '/api/health', '/api/health/ready']);
const untraced = (url: string | undefined) => UNTRACED_PATHS.has((url ?? '/').split('?')[0] ?? '/');

/**
 * The attributes that hold a request's URL or a part of it, as the instrumentations name them, each with its redaction
 * from the log's rule (lib/log-redaction.ts): a token or key the log hides is hidden from the collector the same way.
 */
const URL_ATTRIBUTES: Record<string, (value: string) => string> = {
  'url.full': redactUrl,
  // The HTTP instrumentation's path alone; Fastify's holds the query too.
  'url.path': redactUrl,
  // Without its `?` from the HTTP instrumentation, with it from undici's.
  'url.query': (query) => (query.startsWith('?') ? redactUrl(query) : redactQuery(query)),
  // The older semantic conventions' names, should an instrumentation still set them.
  'http.url': redactUrl,
  'http.target': redactUrl,
};

/**
 * Rewrites a span's URL attributes without their secrets. Called from each instrumentation's hook right after it starts
 * a span, before the span can end and be exported (unless Node refuses a node:http request outright, which ends its span
 * first). The SDK's spans are readable (sdk-trace's ReadableSpan); one not recording has nothing to hide.
 */
function redactUrlAttributes(span: Span): void {
  const { attributes } = span as { attributes?: Attributes };
  for (const [key, redact] of Object.entries(URL_ATTRIBUTES)) {
    const value = attributes?.[key];
    if (typeof value === 'string') span.setAttribute(key, redact(value));
  }
}

/** How long a stop waits for the last spans to reach the collector: a collector that is down must not hold it. */
const SHUTDOWN_WAIT_MS = 3000;

/** The SDK's own complaints (a collector that refuses or cannot be reached), at most one a minute per kind. */
function throttledDiagLogger(write: (message: string) => void): DiagLogger {
  const last = new Map<string, number>();
  const say = (message: string, ...args: unknown[]) => {
    const key = message.slice(0, 60);
    const now = Date.now();
    if (now - (last.get(key) ?? 0) < 60_000) return;
    last.set(key, now);
    const detail = args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' ');
    write(`OpenTelemetry: ${message}${detail ? ` ${detail}` : ''}`);
  };
  return { error: say, warn: say, info: () => {}, debug: () => {}, verbose: () => {} };
}

export async function startSdk(defaultServiceName: string): Promise<Tracing> {
  const require = createRequire(import.meta.url);
  // Without OTEL_LOG_LEVEL (the SDK then prints everything at that level itself), its warnings and errors go to
  // standard error, briefly: a collector that is down otherwise goes unnoticed.
  if (!process.env.OTEL_LOG_LEVEL) {
    diag.setLogger(
      throttledDiagLogger((message) => process.stderr.write(`${message}\n`)),
      DiagLogLevel.WARN,
    );
  }

  const http = new HttpInstrumentation({
    ignoreIncomingRequestHook: (request) => untraced(request.url),
    // Called for the server span of a request and for the client span of a call (Stripe's, a gateway's upstream).
    requestHook: redactUrlAttributes,
  });
  const pg = new PgInstrumentation({
    // Queries outside any request or job run (the metrics gauges every 15 s, LISTEN) would each be a trace of one span.
    requireParentSpan: true,
    // The statement's text only (parameterised), never its values: a token or a key's hash looked up is a value.
    enhancedDatabaseReporting: false,
  });
  const instrumentations = [
    http,
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      // A span for the request (with its route's pattern) and one for its handler; none for each of the hooks, which
      // would be a dozen spans a request.
      instrumentHooks: false,
      ignorePaths: ({ url }) => untraced(url),
      requestHook(span, request) {
        redactUrlAttributes(span);
        // The id a customer quotes (X-Request-Id) finds the trace.
        span.setAttribute('http.request.id', request.id);
      },
    }),
    new UndiciInstrumentation({ requestHook: redactUrlAttributes }),
    pg,
  ];

  const { version } = buildInfo();
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, read by the SDK's resource detectors, win over these.
    resource: defaultResource().merge(
      resourceFromAttributes({ 'service.name': defaultServiceName, 'service.version': version }),
    ),
    instrumentations,
    // Traces only, unless asked otherwise: the shop's metrics are Prometheus' (METRICS_PORT), and its logs are pino's
    // lines. The SDK's default would also push OpenTelemetry metrics and logs to the endpoint.
    ...(!process.env.OTEL_METRICS_EXPORTER?.trim() && { metricReaders: [] }),
    ...(!process.env.OTEL_LOGS_EXPORTER?.trim() && { logRecordProcessors: [] }),
  });
  sdk.start();

  // node:http and node:https were loaded long before (by this very file's imports): patched now, in place, and the
  // ES module view of them (import { request } from 'node:http') brought in step.
  for (const definition of http.getModuleDefinitions()) definition.patch?.(require(definition.name));
  syncBuiltinESMExports();

  const tracer = trace.getTracer('storefront', version);
  return {
    span(name, options: SpanOptions, run) {
      const attributes = Object.fromEntries(
        Object.entries(options.attributes ?? {}).filter((entry): entry is [string, string | number | boolean] =>
          ['string', 'number', 'boolean'].includes(typeof entry[1]),
        ),
      );
      return tracer.startActiveSpan(
        name,
        { kind: options.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes },
        async (span) => {
          try {
            return await run();
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            span.recordException(error instanceof Error ? error : message);
            span.setStatus({ code: SpanStatusCode.ERROR, message });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },
    instrument(name: InstrumentedModule, moduleExports) {
      if (name !== 'pg') return;
      const module = moduleExports as { Pool?: object };
      // pg's Pool is a subclass of pg-pool's, which is all the pg-pool module exports.
      const poolModule = module.Pool ? Object.getPrototypeOf(module.Pool) : undefined;
      for (const definition of pg.getModuleDefinitions()) {
        if (definition.name === 'pg') definition.patch?.(moduleExports);
        if (definition.name === 'pg-pool' && typeof poolModule === 'function') definition.patch?.(poolModule);
      }
    },
    // A new object each call: pino's mixin merge writes the line's own fields into the object it is given, so a shared
    // empty one would carry every earlier line's fields into the next lines outside a trace.
    logFields(): Record<string, string> {
      const span = trace.getSpan(context.active());
      if (!span) return {};
      const ids = span.spanContext();
      if (!isSpanContextValid(ids)) return {};
      return { trace_id: ids.traceId, span_id: ids.spanId, trace_flags: `0${ids.traceFlags.toString(16)}` };
    },
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        sdk.shutdown().catch(() => {}),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
