import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { enqueueEmail } from '../modules/notifications/outbox.ts';
import { type FakeStripe, startFakeStripe } from '../test/fake-stripe.ts';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../test/otlp-receiver.ts';
import { freePort, gatewayMain, type ServerProcess, serverMain, spawnProcess } from '../test/processes.ts';
import { type Service, startService, tempDir } from '../test/service.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { REDACTED, redactUrl } from './log-redaction.ts';

// Traces: the real server, job runner and gateway processes, with OTEL_EXPORTER_OTLP_ENDPOINT set to
// a local OTLP/HTTP receiver, export their spans there; without it, they never load OpenTelemetry. On the embedded
// database and on PostgreSQL (the database's own spans are node-postgres', so PostgreSQL only).
const onPostgres = process.env.TEST_DB === 'postgres';
/** For a test the database plays no part in: true in one project only (api-postgres when the suite has it). */
const onceOnly = onPostgres || !process.env.TEST_DATABASE_URL;
const jobsMain = fileURLToPath(new URL('../jobs.ts', import.meta.url));
const tracingModule = new URL('./tracing.ts', import.meta.url).href;
const reportLoads = fileURLToPath(new URL('../test/report-loads.ts', import.meta.url));
/** What a module of OpenTelemetry, or the shop's SDK setup, is called when it is loaded. */
const OTEL_MODULE = /@opentelemetry\/|@fastify\/otel|tracing-sdk\.ts/;
const SERVER = 2;
const CLIENT = 3;

let t: TestApp | undefined;
let stripe: FakeStripe;
const processes: ServerProcess[] = [];
const services: Service[] = [];
const folder = tempDir('storefront-tracing-');

beforeAll(async () => {
  if (onPostgres) t = await createTestApp();
  stripe = await startFakeStripe();
}, 60_000);

afterEach(async () => {
  await Promise.all([...processes.splice(0).map((child) => child.crash()), ...services.splice(0).map((s) => s.kill())]);
});

afterAll(async () => {
  await stripe.close();
  await t?.close();
  folder.cleanup();
});

/** The test's PostgreSQL database, or a fresh in-memory embedded one for the process. */
function databaseEnv(): Record<string, string> {
  if (t && t.config.database.kind === 'postgres') {
    return { DATABASE_URL: t.config.database.connectionString, AUTH_SECRET: 'a'.repeat(32) };
  }
  return { DATABASE_URL: 'memory://' };
}

/** The environment that makes a process write every module it loads to `file` (test/report-loads.ts). */
function loadsReportedTo(name: string) {
  const file = path.join(folder.dir, `${name}-${Date.now()}.loads`);
  return { file, env: { NODE_OPTIONS: `--import=${reportLoads}`, REPORT_LOADS_TO: file } };
}
/** What a process loaded: each module, and the module that asked for it. */
const loadedModules = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [url = '', parent = ''] = line.split('\t');
      return { url, parent };
    });

async function startServer(env: Record<string, string>) {
  const server = await spawnProcess(
    serverMain,
    {
      ...databaseEnv(),
      HOST: '127.0.0.1',
      PORT: '0',
      GATEWAY_ENABLED: 'false',
      JOBS_INTERVAL_S: '0',
      WEB_DIST_DIR: '/nonexistent',
      // Every GET /api/pricing reads the database.
      PRICING_CACHE_MS: '0',
      ...env,
    },
    /"port":(\d+).*ready at/,
  );
  processes.push(server);
  return { server, url: `http://127.0.0.1:${server.ready[1]}` };
}

/** Waits until `found` says what the receiver holds is enough (spans leave in batches, every 100 ms here). */
function eventually<T>(look: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  return vi.waitFor(
    () => {
      const found = look();
      if (found === undefined) throw new Error(`no ${what} within ${timeoutMs} ms`);
      return found;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** The status of `GET http://example.com/` asked of the proxy at `port`, with these credentials or none. */
const proxiedStatus = (port: number, credentials?: string) =>
  new Promise<number | undefined>((resolve, reject) => {
    const headers: Record<string, string> = { host: 'example.com' };
    if (credentials) headers['proxy-authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
    get({ host: '127.0.0.1', port, path: 'http://example.com/', headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    }).on('error', reject);
  });

/** The JSON log lines a process printed. */
const logLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('traces over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('the server: a request is one trace (its route pattern, its queries), Stripe calls are spans, log lines carry the trace id', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const loads = loadsReportedTo('server');
      const { server, url } = await startServer({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        STRIPE_SECRET_KEY: 'sk_test_tracing',
        STRIPE_WEBHOOK_SECRET: 'whsec_tracing',
        STRIPE_API_URL: stripe.url,
        ...loads.env,
      });
      const response = await fetch(`${url}/api/pricing`, { headers: { 'x-request-id': 'trace-me-1' } });
      expect(response.status).toBe(200);

      const serverSpan = await eventually(
        () => receiver.spans().find((span) => span.kind === SERVER && span.attributes['http.route'] === '/api/pricing'),
        'server span of GET /api/pricing',
      );
      expect(serverSpan).toMatchObject({
        service: 'storefront',
        scope: '@opentelemetry/instrumentation-http',
        name: 'GET /api/pricing',
        parentSpanId: undefined,
        attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200, 'url.path': '/api/pricing' },
      });
      const inTrace = () => receiver.spans().filter((span) => span.traceId === serverSpan.traceId);
      // Fastify's span of the request, under the HTTP server's, names the route and the request id a customer quotes.
      expect(inTrace().find((span) => span.scope === '@fastify/otel' && span.name === 'request')).toMatchObject({
        parentSpanId: serverSpan.spanId,
        attributes: { 'http.route': '/api/pricing', 'http.request.id': 'trace-me-1' },
      });
      if (onPostgres) {
        const queries = await eventually(() => {
          const found = inTrace().filter((span) => span.scope === '@opentelemetry/instrumentation-pg');
          return found.some((span) => span.name.startsWith('pg.query:SELECT')) ? found : undefined;
        }, 'PostgreSQL query spans in the request trace');
        expect(queries.every((span) => span.kind === CLIENT && span.service === 'storefront')).toBe(true);
        const select = queries.find((span) => span.name.startsWith('pg.query:SELECT'));
        expect(select?.attributes['db.system.name']).toBe('postgresql');
        expect(String(select?.attributes['db.query.text'])).toMatch(/^select /i);
      }

      // Stripe's SDK (node:http, at start-up: the prices are found by lookup key) is traced as HTTP client calls.
      const stripePort = Number(new URL(stripe.url).port);
      const stripeCall = await eventually(
        () => receiver.spans().find((span) => span.kind === CLIENT && span.attributes['server.port'] === stripePort),
        'span of a call to Stripe',
      );
      expect(stripeCall).toMatchObject({ scope: '@opentelemetry/instrumentation-http', service: 'storefront' });
      expect(stripe.requests.length).toBeGreaterThan(0);

      // The request's log lines carry its trace.
      const requestLines = logLines(server.output()).filter((line) => line.reqId === 'trace-me-1');
      expect(requestLines.length).toBeGreaterThan(0);
      for (const line of requestLines) expect(line.trace_id).toBe(serverSpan.traceId);
      // The SDK and the instrumentations were loaded in this process (the check below, without them, is not blind).
      expect(loadedModules(loads.file).some((module) => OTEL_MODULE.test(module.url))).toBe(true);
      expect(await server.stop()).toBe(0);
      // Lines outside any trace carry only their own fields, not those of the lines before them (pino's mixin merge
      // writes into the object it is given: a shared one collected every earlier line's fields).
      const untraced = logLines(server.output()).filter((line) => line.trace_id === undefined);
      const ready = untraced.findIndex((line) => String(line.msg).includes('ready at'));
      expect(untraced[ready]?.port).toBeTypeOf('number');
      for (const line of untraced.slice(ready + 1)) expect(line, String(line.msg)).not.toHaveProperty('port');
      // Only traces: no OpenTelemetry metrics or logs are pushed (the shop's metrics are Prometheus').
      expect(new Set(receiver.exports.map((entry) => entry.path))).toEqual(new Set(['/v1/traces']));
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('the job runner: a run is one trace, with its queries and the e-mail it sends over SMTP', async () => {
    const receiver = await startOtlpReceiver();
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    const smtpPort = await freePort();
    await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
    try {
      // One e-mail waits in the outbox of a database the runner opens.
      let env: Record<string, string>;
      const mail = { to: 'someone@example.com', subject: 'Traced', text: 'Hello', html: '<p>Hello</p>' };
      if (t) {
        await enqueueEmail(t.database.db, `tracing-${Date.now()}`, mail);
        env = databaseEnv();
      } else {
        const data = tempDir('storefront-tracing-jobs-');
        const database = await openDatabase({
          kind: 'pglite',
          dataDir: path.join(data.dir, 'pglite'),
          chosenBy: 'DATA_DIR',
        });
        await database.migrate();
        await enqueueEmail(database.db, 'tracing-1', mail);
        await database.close();
        env = { DATA_DIR: data.dir };
      }
      const runner = startService(process.execPath, [jobsMain, '--once'], {
        cwd: folder.dir,
        env: {
          NODE_ENV: 'test',
          METRICS_PORT: '0',
          ...env,
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          MAIL_FROM: 'shop@example.com',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        },
      });
      services.push(runner);
      expect(await runner.exited, runner.output()).toBe(0);
      expect(runner.output()).toContain('"emailsSent":1');

      // The stop exported what was left: everything is there once the process has exited.
      const spans = receiver.spans();
      const run = spans.find((span) => span.scope === 'storefront' && span.name === 'periodic job');
      expect(run).toMatchObject({ service: 'storefront', parentSpanId: undefined, kind: 1 });
      const inRun = spans.filter((span) => span.traceId === run?.traceId);
      expect(inRun.find((span) => span.name === 'smtp send')).toMatchObject({
        kind: CLIENT,
        attributes: { 'server.address': '127.0.0.1', 'server.port': smtpPort },
      });
      if (onPostgres) {
        expect(inRun.filter((span) => span.scope === '@opentelemetry/instrumentation-pg').length).toBeGreaterThan(2);
      }
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await receiver.close();
    }
  }, 60_000);

  // The database plays no part here (a request without credentials is refused before any lookup), so the two gateways
  // start once: on PostgreSQL when the suite has it (they start faster there), else on the embedded database.
  it.runIf(onceOnly)(
    'a gateway on its own: storefront-gateway, over OTLP/HTTP in protobuf by default; OTEL_SERVICE_NAME wins',
    async () => {
      const receiver = await startOtlpReceiver();
      try {
        for (const serviceName of [undefined, 'edge-gateway-eu']) {
          const gateway = await spawnProcess(
            gatewayMain,
            {
              ...databaseEnv(),
              GATEWAY_HOST: '127.0.0.1',
              GATEWAY_PORT: '0',
              OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
              OTEL_BSP_SCHEDULE_DELAY: '100',
              ...(serviceName && { OTEL_SERVICE_NAME: serviceName }),
            },
            /residential gateway listening on port (\d+)/,
          );
          processes.push(gateway);
          // A proxied request without credentials: 407, a request the gateway's HTTP server answered.
          expect(await proxiedStatus(Number(gateway.ready[1]))).toBe(407);
          const name = serviceName ?? 'storefront-gateway';
          const exported = await eventually(
            () => receiver.exports.find((entry) => entry.body.includes(Buffer.from(name))),
            `an export from ${name}`,
          );
          expect(exported.path).toBe('/v1/traces');
          expect(exported.contentType).toBe('application/x-protobuf');
          expect(await gateway.stop()).toBe(0);
        }
      } finally {
        await receiver.close();
      }
    },
    60_000,
  );
});

/** Secrets as the shop makes them: a personal API key (`psk_` and 43 base64url characters) and link tokens. */
function newSecrets() {
  const apiKey = `psk_${randomBytes(32).toString('base64url')}`;
  return {
    apiKey,
    keyBody: apiKey.slice(4),
    resetToken: randomBytes(24).toString('base64url'),
    emailToken: `eyJhbGciOiJIUzI1NiJ9.${randomBytes(60).toString('base64url')}.${randomBytes(32).toString('base64url')}`,
    pageToken: randomBytes(24).toString('base64url'),
    callbackToken: randomBytes(24).toString('base64url'),
  };
}

/** Where a secret stands in the spans: their names and attributes. */
const placesOf = (spans: ReceivedSpan[], secret: string) =>
  spans.flatMap((span) => [
    ...(span.name.includes(secret) ? [`${span.scope}: span name`] : []),
    ...Object.entries(span.attributes)
      .filter(([, value]) => String(value).includes(secret))
      .map(([key]) => `${span.scope}: ${key}`),
  ]);

/** The secrets found anywhere in the bytes the collector received, each with where it stands. */
function leaked(receiver: OtlpReceiver, secrets: Record<string, string>) {
  const payload = Buffer.concat(receiver.exports.map((entry) => entry.body));
  expect(payload.length).toBeGreaterThan(0);
  const spans = receiver.spans();
  return Object.entries(secrets)
    .filter(([, secret]) => payload.includes(secret))
    .map(([name, secret]) => `${name} in ${[...new Set(placesOf(spans, secret))].join(', ') || 'the payload'}`);
}

/** The URL a request's log line holds (Fastify's `incoming request` line, through the log's serializer). */
const loggedUrl = (output: string, requestId: string) =>
  logLines(output)
    .filter((line) => line.reqId === requestId)
    .map((line) => (line.req as { url?: string } | undefined)?.url)
    .find(Boolean);

/** A process that starts tracing and makes two requests: node:http on its module object (as Stripe's SDK), then fetch. */
const OUTGOING_REQUESTS = `
import http from 'node:http';
const { startTracing, stopTracing, traced } = await import(process.env.TRACING_MODULE);
await startTracing('storefront');
const get = (url) =>
  new Promise((resolve, reject) => http.get(url, (response) => response.resume().on('end', resolve)).on('error', reject));
await traced('outgoing requests', {}, async () => {
  await get(process.env.HTTP_URL);
  await (await fetch(process.env.FETCH_URL)).text();
});
await stopTracing();
`;

describe('secrets in traces: the log redaction (lib/log-redaction.ts) applies to spans', () => {
  it('the server: an API key, a reset token and confirmation tokens reach the collector as the log writes them', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { server, url } = await startServer({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
      const secrets = newSecrets();
      const requests: Record<string, string> = {
        'secret-key': `/api/proxy-list?key=${secrets.apiKey}&product=isp_proxies`,
        'secret-reset': `/api/auth/reset-password/${secrets.resetToken}?callbackURL=%2Freset-password`,
        'secret-verify': `/api/auth/verify-email?token=${secrets.emailToken}&callbackURL=%2Fauth%2Fcallback`,
        'secret-page': `/reset-password?token=${secrets.pageToken}`,
        'secret-callback': `/auth/callback?token=${secrets.callbackToken}`,
      };
      for (const [id, target] of Object.entries(requests)) {
        const response = await fetch(url + target, { headers: { 'x-request-id': id }, redirect: 'manual' });
        await response.arrayBuffer();
      }
      // The stop exports the spans still buffered.
      expect(await server.stop()).toBe(0);

      expect(leaked(receiver, secrets)).toEqual([]);
      const spans = receiver.spans();
      for (const [id, target] of Object.entries(requests)) {
        const logged = loggedUrl(server.output(), id);
        expect(logged, id).toBe(redactUrl(target));
        expect(logged, id).toContain(REDACTED);
        const request = spans.find(
          (span) => span.scope === '@fastify/otel' && span.attributes['http.request.id'] === id,
        );
        expect(request?.attributes['url.path'], id).toBe(logged);
        const serverSpan = spans.find((span) => span.spanId === request?.parentSpanId);
        expect(serverSpan?.kind, id).toBe(SERVER);
        expect(`${serverSpan?.attributes['url.path']}?${serverSpan?.attributes['url.query']}`, id).toBe(logged);
      }
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it.runIf(onceOnly)(
    'outgoing requests (node:http, fetch): their URL reaches the collector as the log would write it',
    async () => {
      const receiver = await startOtlpReceiver();
      const target = createServer((_request, response) => response.end('ok'));
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      try {
        const secrets = newSecrets();
        const origin = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
        const httpUrl = `${origin}/api/proxy-list?key=${secrets.apiKey}&product=isp_proxies`;
        const fetchUrl = `${origin}/api/auth/reset-password/${secrets.resetToken}?callbackURL=%2Freset-password`;
        const client = startService(process.execPath, ['--input-type=module', '--eval', OUTGOING_REQUESTS], {
          cwd: folder.dir,
          env: {
            NODE_ENV: 'test',
            TRACING_MODULE: tracingModule,
            HTTP_URL: httpUrl,
            FETCH_URL: fetchUrl,
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          },
        });
        services.push(client);
        expect(await client.exited, client.output()).toBe(0);

        expect(leaked(receiver, secrets)).toEqual([]);
        const clients = receiver.spans().filter((span) => span.kind === CLIENT);
        const http = clients.find((span) => span.scope === '@opentelemetry/instrumentation-http');
        expect(http?.attributes['url.full']).toBe(redactUrl(httpUrl));
        const undici = clients.find((span) => span.scope === '@opentelemetry/instrumentation-undici');
        expect(undici?.attributes).toMatchObject({
          'url.full': redactUrl(fetchUrl),
          'url.path': `/api/auth/reset-password/${REDACTED}`,
          'url.query': '?callbackURL=%2Freset-password',
        });
      } finally {
        await new Promise<void>((resolve) => target.close(() => resolve()));
        await receiver.close();
      }
    },
    60_000,
  );
});

describe('a gateway on its own, traced', () => {
  it('a proxied request whose credentials are looked up is a trace, with its queries on PostgreSQL', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const gateway = await spawnProcess(
        gatewayMain,
        {
          ...databaseEnv(),
          GATEWAY_HOST: '127.0.0.1',
          GATEWAY_PORT: '0',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '100',
        },
        /residential gateway listening on port (\d+)/,
      );
      processes.push(gateway);
      expect(await proxiedStatus(Number(gateway.ready[1]), 'res-nobody:not-a-password')).toBe(407);
      const serverSpan = await eventually(
        () => receiver.spans().find((span) => span.kind === SERVER && span.service === 'storefront-gateway'),
        'server span of the proxied request',
      );
      expect(serverSpan).toMatchObject({ scope: '@opentelemetry/instrumentation-http', parentSpanId: undefined });
      if (onPostgres) {
        const queries = await eventually(() => {
          const found = receiver
            .spans()
            .filter((span) => span.traceId === serverSpan.traceId && span.name.startsWith('pg.query'));
          return found.length > 0 ? found : undefined;
        }, 'the account lookup in the proxied request trace');
        expect(queries[0]).toMatchObject({ service: 'storefront-gateway', kind: CLIENT });
      }
      expect(await gateway.stop()).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('the server loads nothing of OpenTelemetry, and its log lines carry no trace id', async () => {
    const loads = loadsReportedTo('untraced');
    const { server, url } = await startServer(loads.env);
    expect((await fetch(`${url}/api/pricing`, { headers: { 'x-request-id': 'untraced-1' } })).status).toBe(200);
    expect(await server.stop()).toBe(0);
    const modules = loadedModules(loads.file);
    // The report is not blind: the server's own modules and Fastify are in it.
    expect(modules.some((module) => module.url.endsWith('/apps/server/src/main.ts'))).toBe(true);
    expect(modules.some((module) => module.url.includes('/node_modules/fastify/'))).toBe(true);
    // OpenTelemetry's API is a dependency of prom-client (exemplars) and better-auth (its optional spans), loaded by them
    // as it always was: without an SDK every call of it does nothing. Nothing else of OpenTelemetry is loaded, and the
    // shop's own code asks for none of it.
    const otel = modules.filter((module) => OTEL_MODULE.test(module.url));
    expect(otel.filter((module) => !module.url.includes('/node_modules/@opentelemetry/api/'))).toEqual([]);
    expect(otel.filter((module) => module.parent.includes('/apps/server/src/'))).toEqual([]);
    const lines = logLines(server.output()).filter((line) => line.reqId === 'untraced-1');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toHaveProperty('trace_id');
  }, 60_000);
});
