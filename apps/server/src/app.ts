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
import { cachedProbe, down, notConfigured, ok, type Readiness } from './lib/readiness.ts';
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
import { getStock } from './modules/catalogue/get-pricing.ts';
import { catalogueRoutes, createPricingReader } from './modules/catalogue/routes.ts';
import { checkoutRoutes } from './modules/checkout/routes.ts';
import { customerSettingsRoutes } from './modules/customer-settings/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { createJobRunner, type JobRunner } from './modules/jobs/runner.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { proxyUserRoutes } from './modules/proxy-users/routes.ts';
import { sandboxRoutes } from './modules/sandbox/routes.ts';
import { topUpRoutes } from './modules/top-up/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { createPaymentProvider } from './payments/create-provider.ts';
import { registerApiDocs, registerApiDocsPage } from './plugins/api-docs.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { addressHasNul, nulMessage, registerJsonBodyParser } from './plugins/json-body.ts';
import { registerSecurity } from './plugins/security.ts';
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
  const app = createFastify(config, logger);
  const webApp = await loadWebAppBuild(config.webDistDir, config.site);
  await registerFoundation(app, config, webApp.scriptHashes);
  const services = await createServices(app, config, database, mailer);
  app.decorate('jobs', services.jobs);
  app.decorate('alerts', services.alertService);
  app.decorate('readiness', services.readiness);
  startServices(app, config, services);
  registerShopGauges(app.metrics.registry, {
    database,
    readiness: services.readiness,
    lowStock: { ips: config.alerts.lowStockIps, gb: config.alerts.lowStockGb },
    readStock: () => getStock(database.db),
  });
  await app.register(async (api) => registerApi(api, { app, config, database, lifecycle, services }), {
    prefix: '/api',
  });
  // Pages, their assets, the API reference page and the 404 page.
  await app.register(async (pages) => {
    await registerApiDocsPage(pages);
    await registerWebApp(pages, {
      distDir: config.webDistDir,
      build: webApp,
      site: config.site,
      pricing: services.pricing,
      customerPages: app.metrics.customerPages,
    });
  });
  return app;
}

function createFastify(config: Config, logger: BuildAppOptions['logger']): FastifyInstance {
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
  return Fastify({
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
}

/** What every answer shares: metrics, the route table, validation, errors, security headers and compression. */
async function registerFoundation(app: FastifyInstance, config: Config, scriptHashes: string[]): Promise<void> {
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
  // One header policy for pages and API answers alike, set before any hook can refuse a request.
  await registerSecurity(app, { scriptHashes, https: config.appUrl.startsWith('https://') });
  // Every answer names its request, errors and 404s included, so that a customer can quote it and an operator find it.
  // An address a URL parser would read as another, or holding a NUL, is refused before any rule sees it, as an error
  // of the route asked for (each answers in its own error shape).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (!pathIsPlain(request.url)) return done(new AppError('BAD_REQUEST', unplainPathMessage));
    if (addressHasNul(request.url)) return done(new AppError('BAD_REQUEST', nulMessage));
    done();
  });
  // Pages and API answers over 1 KB go out compressed (built assets are compressed ahead of time, see web-app.ts).
  // Compressed request bodies are not taken (no client of this API sends them): no decompression hook on any route.
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
  });
  await registerApiDocs(app, config);
}

type Services = Awaited<ReturnType<typeof createServices>>;

/** The app's services: payments, mail, auth, the job and its alerts, rate limits, readiness. */
async function createServices(app: FastifyInstance, config: Config, database: Database, mailer?: Mailer) {
  const db = database.db;
  const authSecret = await resolveAuthSecret(config.auth, app.log);
  const appMailer = mailer ?? createMailer(config.mail, app.log);
  const provider = createPaymentProvider(config, authSecret);
  const brand = { brandName: config.site.brandName, appUrl: config.appUrl };
  const flushEmails = () => jobs.flushEmails();
  // What needs a person (orders waiting, low stock, the job or the outbox stuck): checked with every run of the job,
  // after an administrator's change, and, for the job alone, on every server's own timer.
  const alertService = createAlertService({
    db,
    brand,
    settings: config.alerts,
    log: app.log,
    wakeMailer: flushEmails,
  });
  const jobs = createJobRunner({
    db,
    brand,
    mailer: appMailer,
    log: app.log,
    provider,
    currency: config.payments.currency,
    settings: config.jobs,
    onPruned: (what, rows) => app.metrics.prunedRows.inc({ what }, rows),
    afterRun: () => alertService.check(),
  });
  const auth = createAuth({ config, db, wakeMailer: flushEmails, logger: app.log, secret: authSecret });
  const guards = createGuards(auth, config, (key) => authenticateApiKey({ db, key }));
  const rateLimitStore = await createRateLimitStore(config.redis, app.log);
  app.addHook('onClose', async () => rateLimitStore.close());
  const readiness = createReadiness(app, appMailer, rateLimitStore.client, jobs);
  const pricing = createPricingReader(db, config.pricingCacheMs);
  return {
    authSecret,
    provider,
    brand,
    flushEmails,
    alertService,
    jobs,
    auth,
    guards,
    rateLimit: rateLimitStore.pluginOptions,
    readiness,
    pricing,
  };
}

/** What GET /api/health/ready reports besides the database: Redis, the mail server, the job (the gateway: not here). */
function createReadiness(
  app: FastifyInstance,
  mailer: Mailer,
  redisClient: { status: string } | undefined,
  jobs: JobRunner,
): Readiness {
  // The mail server is asked at most once a minute, in the background; Redis's state is the client's own.
  const smtpProbe = mailer.verify
    ? cachedProbe(() => mailer.verify?.() ?? Promise.resolve(), { intervalMs: 60_000, timeoutMs: 10_000 })
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
  return {
    redis: () =>
      !redisClient ? notConfigured : redisClient.status === 'ready' ? ok : down(`connection ${redisClient.status}`),
    smtp: () => smtpProbe?.current() ?? notConfigured,
    job: () => jobs.health(),
    gateway: () => notConfigured,
  };
}

/** The job and the alert check start when the app is ready and stop when it closes. */
function startServices(app: FastifyInstance, config: Config, { jobs, alertService, provider }: Services): void {
  app.addHook('onReady', async () => jobs.start(config.jobsIntervalSeconds));
  app.addHook('onReady', async () => alertService.start());
  app.addHook('onClose', async () => alertService.stop());
  app.addHook('onClose', async () => jobs.stop());
  app.addHook('onReady', async () => {
    // Stripe's prices are found or created by lookup key in the background; a failure is retried at the next checkout.
    provider.prepare().catch((error: unknown) => app.log.error({ err: error }, 'payment provider is not ready'));
  });
}

/** Every route under /api, each module's in its own context. */
async function registerApi(
  api: FastifyInstance,
  context: { app: FastifyInstance; config: Config; database: Database; lifecycle: Lifecycle; services: Services },
): Promise<void> {
  const { app, config, database, lifecycle, services } = context;
  const { auth, guards, provider, brand, rateLimit, jobs, flushEmails } = services;
  const db = database.db;
  await api.register(healthRoutes, { database, lifecycle, readiness: services.readiness });
  await api.register(catalogueRoutes, { db, pricing: services.pricing });
  await api.register(authRoutes, { auth, db, config, rateLimit, secret: services.authSecret });
  await api.register(userRoutes, {
    auth,
    db,
    guards,
    brand,
    limits: config.auth.rateLimit,
    rateLimit,
    wakeMailer: flushEmails,
  });
  await api.register(apiKeyRoutes, { db, guards });
  await api.register(customerSettingsRoutes, { db, guards, allowPrivateIps: config.gateway.allowPrivateTargets });
  await api.register(proxyUserRoutes, {
    db,
    guards,
    allowPrivateIps: config.gateway.allowPrivateTargets,
    rateLimit,
    keyRateLimitPerMinute: config.apiKeyRateLimitPerMinute,
  });
  await api.register(orderRoutes, {
    db,
    guards,
    gatewayEndpoint: config.gatewayEndpoint,
    gatewayTestUrl: config.gatewayTestUrl,
    provider,
    rateLimit,
    keyRateLimitPerMinute: config.apiKeyRateLimitPerMinute,
    replacementPercent: config.ipReplacementPercent,
  });
  await api.register(checkoutRoutes, {
    db,
    guards,
    provider,
    appUrl: config.appUrl,
    payments: config.payments,
    rateLimit,
    checkouts: app.metrics.checkouts,
  });
  await api.register(topUpRoutes, {
    db,
    guards,
    provider,
    brand,
    payments: config.payments,
    rateLimit,
    keyRateLimitPerMinute: config.apiKeyRateLimitPerMinute,
  });
  await api.register(webhookRoutes, { db, provider, brand, flushEmails, events: app.metrics.webhookEvents });
  await registerAdminApi(api, app, { config, db, services });
  if (provider.name === 'sandbox') {
    await api.register(sandboxRoutes, { db, guards, provider, brand, jobs });
  }
}

/**
 * Every route under /api/admin must be declared in the admin context, whose hook admits administrators only: one
 * declared anywhere else would be open to anyone, so the app refuses to start.
 */
async function registerAdminApi(
  api: FastifyInstance,
  app: FastifyInstance,
  { config, db, services }: { config: Config; db: Database['db']; services: Services },
): Promise<void> {
  const { provider, jobs, alertService } = services;
  const adminDeclared = new Set<string>();
  app.addHook('onReady', async () => {
    const open = app.routeTable.filter(
      ({ method, url }) => url.startsWith(ADMIN_PREFIX) && !adminDeclared.has(`${method} ${url}`),
    );
    if (open.length > 0) {
      throw new Error(`routes under ${ADMIN_PREFIX} declared outside the admin context: ${open.map((r) => r.url)}`);
    }
  });
  await api.register(adminApi, {
    db,
    guards: services.guards,
    brand: services.brand,
    provider,
    currency: config.payments.currency,
    flushEmails: services.flushEmails,
    checkAlerts: () => alertService.checkSoon(),
    sandbox: provider.name === 'sandbox' ? { jobs } : undefined,
    declared: adminDeclared,
  });
}
