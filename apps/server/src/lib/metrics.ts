import { PRODUCT_IDS, PRODUCTS, type ProductId } from '@storefront/contract';
import { and, count, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client.ts';
import { emailOutbox, jobState, orders } from '../db/schema.ts';
import { buildInfo } from '../lifecycle/release.ts';
import { registerPoolGauge } from './metrics-gateway.ts';
import { PERIODIC_JOB } from './periodic-job.ts';

/**
 * The shop's Prometheus metrics (names after Prometheus' practices: a `storefront_` prefix, base units, `_total` for
 * counters, labels of bounded values). One registry per process part (the server, the job runner, a gateway), served
 * by lib/metrics-listener.ts on METRICS_PORT, never on the public port.
 */
export interface Metrics {
  registry: Registry;
  checkouts: Counter<'product' | 'result'>;
  webhookEvents: Counter<'provider' | 'type' | 'result'>;
  customerPages: Counter<'page' | 'drawn'>;
  prunedRows: Counter<'what'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { version, commit } = buildInfo();
  new Gauge({
    name: 'storefront_build_info',
    help: 'Always 1: the version and commit this process runs (which build each instance runs during a rollout)',
    labelNames: ['version', 'commit'],
    registers: [registry],
  }).set({ version, commit }, 1);
  return {
    registry,
    checkouts: new Counter({
      name: 'storefront_checkouts_total',
      help: 'Checkouts started, by product and result (started, refused, failed)',
      labelNames: ['product', 'result'],
      registers: [registry],
    }),
    webhookEvents: new Counter({
      name: 'storefront_webhook_events_total',
      help: 'Payment provider events received, by provider, type and result (handled, duplicate, ignored, refused, failed)',
      labelNames: ['provider', 'type', 'result'],
      registers: [registry],
    }),
    customerPages: new Counter({
      name: 'storefront_customer_pages_total',
      help: 'Signed-in pages sent (the customer pages and the admin console), by page and how they were drawn: whole (for their reader), or the frame because of no_session, no_time_zone, signed_out, read_failed, slow or render_failed',
      labelNames: ['page', 'drawn'],
      registers: [registry],
    }),
    prunedRows: new Counter({
      name: 'storefront_pruned_rows_total',
      help: 'Rows the periodic job deleted past their retention, by what they were: sent_emails, failed_emails, webhook_events, sessions, verifications, abandoned_checkouts, resolved_alerts, expired_leases, usage_hours, usage_days',
      labelNames: ['what'],
      registers: [registry],
    }),
  };
}

/**
 * `http_request_duration_seconds{method,route,status_code}` for every registered route, with the route's pattern as
 * its label (never the URL). One onResponse hook per route, made when the route is declared, so a request pays for one
 * observation and nothing else (Fastify measures the time itself); call before any route is declared.
 */
/** better-auth's calls an operator watches apart, under its one catch-all route: a bounded set of label values. */
const NAMED_AUTH_CALLS = new Set(['sign-in/email', 'sign-up/email', 'request-password-reset', 'reset-password']);

/** The route pattern, or for better-auth's catch-all the call itself when it is one of NAMED_AUTH_CALLS. */
function routeLabel(url: string, params: unknown): string {
  if (url !== '/api/auth/*') return url;
  const call = (params as { '*'?: unknown } | undefined)?.['*'];
  return typeof call === 'string' && NAMED_AUTH_CALLS.has(call) ? `/api/auth/${call}` : url;
}

export function observeRequestDurations(app: FastifyInstance, registry: Registry): void {
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onRoute', (route) => {
    const observe: onResponseHookHandler = (request, reply, done) => {
      durations.observe(
        { method: request.method, route: routeLabel(route.url, request.params), status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      );
      done();
    };
    route.onResponse = [...[route.onResponse ?? []].flat(), observe];
  });
}

/** Reads `read` at most every `maxAgeMs`, whatever the scrape rate; concurrent scrapes share one read. */
function readAtMostEvery<T>(maxAgeMs: number, read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at >= maxAgeMs) {
      const value = read();
      last = { at: Date.now(), value };
      // A failed read is not kept: the next scrape tries again.
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}

/** What the shop's database says, for gauges: read at most every 15 s, not per scrape. */
export const SHOP_GAUGE_MAX_AGE_MS = 15_000;

/** The gauges read from the shop's database (the job's runs included) and from this process's pool. */
export function registerShopGauges(
  registry: Registry,
  {
    database,
    readiness,
    lowStock,
    readStock,
  }: {
    database: Database;
    /** The units available of each product, as the pricing counts them. */
    readStock: () => Promise<Record<ProductId, number>>;
    /** LOW_STOCK_ALERT_IPS and LOW_STOCK_ALERT_GB: the alert rule reads the shop's own thresholds (0: no alert). */
    lowStock: { ips: number; gb: number };
    /** The states readiness reports (lib/readiness.ts): 'ok', 'down' or 'not configured'. */
    readiness: Record<'redis' | 'smtp', () => { status: string }>;
  },
): void {
  const db = database.db;
  new Gauge({
    name: 'storefront_dependency_up',
    help: 'Whether each configured dependency answers (1) or not (0): the database, Redis, the SMTP server',
    labelNames: ['dependency'],
    registers: [registry],
    async collect() {
      this.reset();
      this.set({ dependency: 'database' }, (await database.ping()) ? 1 : 0);
      for (const dependency of ['redis', 'smtp'] as const) {
        const { status } = readiness[dependency]();
        if (status !== 'not configured') this.set({ dependency }, status === 'ok' ? 1 : 0);
      }
    },
  });
  const shop = readAtMostEvery(SHOP_GAUGE_MAX_AGE_MS, async () => {
    const [stock, waiting, [outbox], [job]] = await Promise.all([
      readStock(),
      db
        .select({ productId: orders.productId, n: count() })
        .from(orders)
        .where(eq(orders.status, 'processing'))
        .groupBy(orders.productId),
      db
        .select({
          pending: count(),
          failing: sql<number>`count(*) filter (where ${emailOutbox.lastError} is not null)`,
        })
        .from(emailOutbox)
        .where(and(isNull(emailOutbox.sentAt), lt(emailOutbox.attempts, 20))),
      // Recorded by whichever instance ran the job (a server or `node . jobs`), so every instance reports the same.
      db
        .select({ lastSuccessAt: jobState.lastSuccessAt })
        .from(jobState)
        .where(eq(jobState.name, PERIODIC_JOB)),
    ]);
    return {
      stock,
      waiting: new Map(waiting.map((row) => [row.productId, Number(row.n)])),
      outboxPending: Number(outbox?.pending ?? 0),
      jobLastSuccessAt: job?.lastSuccessAt?.getTime() ?? 0,
    };
  });

  new Gauge({
    name: 'storefront_stock_available',
    help: 'Free stock: IPs neither assigned nor burnt for ISP and PK1, GB left in the residential pool',
    labelNames: ['product'],
    registers: [registry],
    async collect() {
      const { stock } = await shop();
      for (const product of PRODUCT_IDS) this.set({ product }, stock[product]);
    },
  });
  new Gauge({
    name: 'storefront_stock_alert_threshold',
    help: 'Free stock under which the shop warns its administrators (IPs; GB for residential; 0: no warning)',
    labelNames: ['product'],
    registers: [registry],
    collect() {
      for (const product of PRODUCT_IDS) {
        this.set({ product }, PRODUCTS[product].unit === 'gb' ? lowStock.gb : lowStock.ips);
      }
    },
  });
  new Gauge({
    name: 'storefront_orders_waiting',
    help: 'Paid orders waiting for stock (Processing Order), by product',
    labelNames: ['product'],
    registers: [registry],
    async collect() {
      const { waiting } = await shop();
      for (const product of PRODUCT_IDS) this.set({ product }, waiting.get(product) ?? 0);
    },
  });
  new Gauge({
    name: 'storefront_outbox_pending',
    help: 'E-mails written to the outbox and not sent yet (given-up ones excluded)',
    registers: [registry],
    async collect() {
      this.set((await shop()).outboxPending);
    },
  });
  new Gauge({
    name: 'storefront_job_last_success_timestamp_seconds',
    help: 'When the periodic job last ran without an error, on any instance (0: not yet)',
    registers: [registry],
    async collect() {
      this.set((await shop()).jobLastSuccessAt / 1000);
    },
  });
  if (database.poolConnections) registerPoolGauge(registry, database.poolConnections);
}
