import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { AppError } from './errors.ts';
import { serializeRequest } from './lib/log-redaction.ts';
import { RequestLinesAtDebug } from './lib/logging.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { createMetrics, type Metrics, observeRequestDurations, registerShopGauges } from './lib/metrics.ts';
import { pathIsPlain, unplainPathMessage } from './lib/plain-address.ts';
import { createRateLimitStore } from './lib/rate-limit-store.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './lib/request-id.ts';
import type { Lifecycle } from './lifecycle/shutdown.ts';
import { ADMIN_PREFIX, adminApi } from './modules/admin/admin-api.ts';
import { type AlertService, createAlertService } from './modules/alerts/alert-service.ts';
import { authenticateApiKey } from './modules/api-keys/authenticate-key.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { createAuth, resolveAuthSecret } from './modules/auth/auth.ts';
import { createGuards } from './modules/auth/guards.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { webhookRoutes } from './modules/billing/webhook-routes.ts';
import { catalogueRoutes, createPricingReader } from './modules/catalogue/routes.ts';
import { checkoutRoutes } from './modules/checkout/routes.ts';
import { customerSettingsRoutes } from './modules/customer-settings/routes.ts';
import { cachedProbe, down, notConfigured, ok, type Readiness } from './modules/health/readiness.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { createJobRunner, type JobRunner } from './modules/jobs/runner.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { createUsageCache } from './modules/orders/usage-cache.ts';
import { sandboxRoutes } from './modules/sandbox/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { createPaymentProvider } from './payments/create-provider.ts';
import { registerApiDocs, registerApiDocsPage } from './plugins/api-docs.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { addressHasNul, nulMessage, refuseNulInAddress, registerJsonBodyParser } from './plugins/json-body.ts';
import { apiSecurityHeaders, registerSecurity } from './plugins/security.ts';
import { loadWebAppBuild, registerWebApp } from './plugins/web-app.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The periodic job (renewals, expiries, reminders, e-mails). */
    jobs: JobRunner;
    /** The alert check (modules/alerts): run with the job, after administrators' changes, and on its own timer. */
    alerts: AlertService;
    /** Every route this app answers, as registered (method and URL pattern; the implied HEAD routes left out). */
    routeTable: readonly RouteEntry[];
    /** What GET /api/health/ready reports besides the database; an entry point that runs the gateway sets `gateway`. */
    readiness: Readiness;
    /** This process's Prometheus metrics (lib/metrics.ts), served on METRICS_PORT by the entry point. */
    metrics: Metrics;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  /** The route's zod schemas of what it accepts (the proof suite fuzzes from them). */
  schema: { body?: unknown; querystring?: unknown; params?: unknown };
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** pino logger options; tests pass `false`. */
  logger?: boolean | object;
  /** Tests pass a mailer that keeps the messages. */
  mailer?: Mailer;
  /** Whether the process is stopping (readiness answers 503 then); main.ts passes its own. */
  lifecycle?: Lifecycle;
}

/** The longest a request's head and body may take to arrive; the largest (an admin's upload) takes seconds. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** TRUST_PROXY for Fastify: a number of proxies as the hops trusted (the nearest first), anything else as it is. */
function trustedHops(trust: Config['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/** Builds the whole app without listening: external plugins, then app services, then routes. */
export async function buildApp({
  config,
  database,
  logger,
  mailer,
  lifecycle = { draining: false },
}: BuildAppOptions): Promise<FastifyInstance> {
  const loggerOptions = {
    level: config.logLevel,
    // Reset and confirmation tokens, OAuth codes and invoice ids never reach the log (see log-redaction.ts).
    serializers: { req: serializeRequest },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'res.headers["set-auth-token"]',
      ],
      remove: true,
    },
  };
  const app = Fastify({
    logger: logger === false ? false : { ...loggerOptions, ...(typeof logger === 'object' ? logger : {}) },
    trustProxy: trustedHops(config.trustProxy),
    bodyLimit: 1_048_576,
    // A request (head and body) has a minute to arrive: a client trickling a body holds no connection longer.
    requestTimeout: REQUEST_TIMEOUT_MS,
    // A caller's valid X-Request-Id, else a new UUID; bound to every log line of the request as `reqId`.
    genReqId: requestIdOf,
    requestIdHeader: false,
    ...(config.env === 'development' && { logController: new RequestLinesAtDebug() }),
  });
  // Every answer names its request, errors and 404s included, so that a customer can quote it and an operator find it.
  // A path that a URL parser would read as another is refused before any rule sees it (plain-address.ts).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (!pathIsPlain(request.url)) return done(new AppError('BAD_REQUEST', unplainPathMessage));
    done();
  });
  const metrics = createMetrics();
  app.decorate('metrics', metrics);
  // Request durations only when something scrapes them (METRICS_PORT is not 0); before any route is declared.
  if (config.metrics) observeRequestDurations(app, metrics.registry);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const { body, querystring, params } = route.schema ?? {};
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeTable.push({ method, url: route.url, schema: { body, querystring, params } });
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  // Pages and API answers over 1 KB go out compressed (built assets are compressed ahead of time, see web-app.ts).
  // Compressed request bodies are not taken (no client of this API sends them): no decompression hook on any route.
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
  });

  const webApp = await loadWebAppBuild(config.webDistDir, config.site);
  const pricing = createPricingReader(database.db, config.pricingCacheMs);
  await registerApiDocs(app, config);

  const authSecret = await resolveAuthSecret(config.auth, app.log);
  const appMailer = mailer ?? createMailer(config.mail, app.log);
  const provider = createPaymentProvider(config, authSecret);
  const brand = { brandName: config.site.brandName, appUrl: config.appUrl };
  // What needs a person (orders waiting, low stock, the job or the outbox stuck): checked with every run of the job,
  // after an administrator's change, and, for the job alone, on every server's own timer.
  const alertService = createAlertService({
    db: database.db,
    brand,
    settings: config.alerts,
    log: app.log,
    wakeMailer: () => jobs.flushEmails(),
  });
  const jobs = createJobRunner({
    db: database.db,
    brand,
    mailer: appMailer,
    log: app.log,
    provider,
    afterRun: () => alertService.check(),
  });
  app.decorate('jobs', jobs);
  app.decorate('alerts', alertService);
  const auth = createAuth({
    config,
    db: database.db,
    wakeMailer: () => jobs.flushEmails(),
    logger: app.log,
    secret: authSecret,
  });
  const guards = createGuards(auth, config, (key) => authenticateApiKey({ db: database.db, key }));
  const rateLimitStore = await createRateLimitStore(config.redis, app.log);
  app.addHook('onClose', async () => rateLimitStore.close());
  const rateLimit = rateLimitStore.pluginOptions;
  // Each customer's usage answer, kept until the database notifies a change of their residential account.
  const usageCache = await createUsageCache(database);
  app.addHook('onClose', async () => usageCache.close());
  // The mail server is asked at most once a minute, in the background; Redis's state is the client's own.
  const smtpProbe = appMailer.verify
    ? cachedProbe(() => appMailer.verify?.() ?? Promise.resolve(), { intervalMs: 60_000, timeoutMs: 10_000 })
    : undefined;
  // A mail server that does not answer at start is said once, by its setting; the shop carries on (the outbox waits).
  if (smtpProbe) {
    app.addHook('onReady', async () => {
      void smtpProbe.refresh().then(() => {
        const probed = smtpProbe.current();
        if (probed.status !== 'down') return;
        app.log.warn(
          `the mail server at SMTP_URL did not answer (${probed.reason}): e-mails wait in the outbox until it does`,
        );
      });
    });
  }
  const redisClient = rateLimitStore.client;
  const readiness: Readiness = {
    redis: () =>
      !redisClient ? notConfigured : redisClient.status === 'ready' ? ok : down(`connection ${redisClient.status}`),
    smtp: () => smtpProbe?.current() ?? notConfigured,
    job: () => jobs.health(),
    gateway: () => notConfigured,
  };
  app.decorate('readiness', readiness);
  registerShopGauges(metrics.registry, {
    database,
    readiness,
    lowStock: { ips: config.alerts.lowStockIps, gb: config.alerts.lowStockGb },
  });
  app.addHook('onReady', async () => jobs.start(config.jobsIntervalSeconds));
  app.addHook('onReady', async () => alertService.start());
  app.addHook('onClose', async () => alertService.stop());
  app.addHook('onClose', async () => jobs.stop());
  app.addHook('onReady', async () => {
    // Stripe's prices are found or created by lookup key in the background; a failure is retried at the next checkout.
    provider.prepare().catch((error: unknown) => app.log.error({ err: error }, 'payment provider is not ready'));
  });

  // Every route under /api/admin must be declared in the admin context, whose hook admits administrators only: one
  // declared anywhere else would be open to anyone, so the app refuses to start.
  const adminDeclared = new Set<string>();
  app.addHook('onReady', async () => {
    const open = routeTable.filter(
      ({ method, url }) => url.startsWith(ADMIN_PREFIX) && !adminDeclared.has(`${method} ${url}`),
    );
    if (open.length > 0) {
      throw new Error(`routes under ${ADMIN_PREFIX} declared outside the admin context: ${open.map((r) => r.url)}`);
    }
  });
  await app.register(
    async (api) => {
      // JSON answers carry an API's headers, not a page's (security.ts): one fixed map, set by this context's only
      // onRequest hook (helmet is registered beside it, for pages, and never runs here), which then refuses a NUL in
      // the address (json-body.ts) before any guard or parser. One callback-style hook: no promise for public reads.
      const apiHeaders = apiSecurityHeaders(config.appUrl.startsWith('https://'));
      api.addHook('onRequest', (request, reply, done) => {
        reply.headers(apiHeaders);
        if (addressHasNul(request.url)) return done(new AppError('BAD_REQUEST', nulMessage));
        done();
      });
      await api.register(healthRoutes, { database, lifecycle, readiness });
      await api.register(catalogueRoutes, { db: database.db, pricing });
      await api.register(authRoutes, { auth, db: database.db, config, rateLimit, secret: authSecret });
      await api.register(userRoutes, {
        auth,
        db: database.db,
        guards,
        brand: { brandName: config.site.brandName, appUrl: config.appUrl },
        limits: config.auth.rateLimit,
        rateLimit,
        wakeMailer: () => jobs.flushEmails(),
      });
      await api.register(apiKeyRoutes, { db: database.db, guards });
      await api.register(customerSettingsRoutes, {
        db: database.db,
        guards,
        allowPrivateIps: config.gateway.allowPrivateTargets,
      });
      await api.register(orderRoutes, {
        db: database.db,
        guards,
        gatewayEndpoint: config.gatewayEndpoint,
        usageCache,
        provider,
        rateLimit,
        keyRateLimitPerMinute: config.apiKeyRateLimitPerMinute,
      });
      await api.register(checkoutRoutes, {
        db: database.db,
        guards,
        provider,
        appUrl: config.appUrl,
        payments: config.payments,
        rateLimit,
        checkouts: metrics.checkouts,
      });
      await api.register(webhookRoutes, {
        db: database.db,
        provider,
        brand,
        flushEmails: () => jobs.flushEmails(),
        events: metrics.webhookEvents,
      });
      await api.register(adminApi, {
        db: database.db,
        guards,
        brand,
        provider,
        currency: config.payments.currency,
        flushEmails: () => jobs.flushEmails(),
        checkAlerts: () => alertService.checkSoon(),
        sandbox: provider.name === 'sandbox' ? { jobs } : undefined,
        declared: adminDeclared,
      });
      if (provider.name === 'sandbox') {
        await api.register(sandboxRoutes, { db: database.db, guards, provider, brand, jobs });
      }
    },
    { prefix: '/api' },
  );

  // Pages, their assets, the API reference page and every answer for an unknown address (the 404 page, or JSON under
  // /api) carry a page's security headers from helmet, in a context of their own so that its two hooks a request never
  // run for the API's answers.
  await app.register(async (pages) => {
    await registerSecurity(pages, { scriptHashes: webApp.scriptHashes, https: config.appUrl.startsWith('https://') });
    refuseNulInAddress(pages);
    await registerApiDocsPage(pages);
    await registerWebApp(pages, {
      distDir: config.webDistDir,
      build: webApp,
      site: config.site,
      pricing,
      customerPages: metrics.customerPages,
    });
  });
  return app;
}
