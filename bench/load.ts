// 60 s of mixed traffic against the built app, on the embedded PGlite and on PostgreSQL: the landing page, pricing,
// sign-in, the orders list, checkout and two admin reads all at once, one autocannon per route in this process, the
// server in its own. Then a bare Fastify hello-world in its own process, with the same connections for the same time,
// in the same run. Prints req/s, p50 and p99 per route and the errors (there must be none).
// LOAD_SECONDS (default 60) sets the duration; LOAD_DATABASES=pglite or postgres runs one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';
import type { Mail, Mailer } from '../apps/server/src/lib/mailer.ts';
import { applyAdminEmails } from '../apps/server/src/modules/auth/admin-emails.ts';
import { dispatchOutbox } from '../apps/server/src/modules/notifications/outbox.ts';
import { recordProof } from '../apps/server/src/test/proof-results.ts';
import { createBenchDatabase } from './bench-database.ts';
import { startHelloWorld } from './side-by-side.ts';
import { startServer } from './start-server.ts';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS_PER_ROUTE = 5;
const PORT = 3410;
const AUTH_SECRET = 'load-test-secret-of-at-least-thirty-two-chars';
const PASSWORD = 'Str0ng!pass';
/** No limit trips under a benchmark's traffic from one address (the limits have tests of their own). */
const LIMITS = {
  AUTH_RATE_LIMIT_PER_IP: '1000000',
  AUTH_RATE_LIMIT_PER_EMAIL: '1000000',
  AUTH_RATE_LIMIT_PER_ACCOUNT: '1000000',
  CHECKOUT_RATE_LIMIT_PER_USER: '1000000',
  ADMIN_EMAILS: 'load-admin@example.com',
};

interface Sessions {
  customer: string;
  admin: string;
}

/** Migrates and seeds the database, and signs up a customer (with orders) and an administrator through the app itself. */
async function prepareShop(databaseUrl: string, base: string): Promise<Sessions> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    AUTH_SECRET,
    APP_URL: base,
    WEB_DIST_DIR: '/nonexistent',
    JOBS_INTERVAL_S: '0',
    ...LIMITS,
  });
  const database = await openDatabase(config.database);
  await database.migrate();
  await seedDatabase(database.db, config);
  const mails: Mail[] = [];
  const mailer: Mailer = { delivers: true, send: async (mail) => void mails.push(mail) };
  const app = await buildApp({
    config,
    database,
    logger: false,
    mailer,
  });
  const headers = { 'content-type': 'application/json', origin: base };
  const signIn = async (email: string) => {
    await app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers,
      payload: { email, password: PASSWORD, name: 'load' },
    });
    // Account e-mails go through the outbox: sent here rather than by a job this app does not run.
    await dispatchOutbox(database.db, mailer, app.log);
    const link = /(http\S+verify-email\S+)/.exec(mails.findLast((mail) => mail.to === email)?.text ?? '')?.[1] ?? '';
    // The link leads to the confirmation page, whose button posts the token back with the password.
    const token = new URL(link).searchParams.get('token');
    await app.inject({
      method: 'POST',
      url: '/api/auth/confirm-email',
      headers,
      payload: { token, password: PASSWORD },
    });
    await applyAdminEmails(database.db, config.auth.adminEmails);
    const answer = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers,
      payload: { email, password: PASSWORD },
    });
    return [answer.headers['set-cookie'] ?? []]
      .flat()
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
  };
  const customer = await signIn('load-customer@example.com');
  const admin = await signIn('load-admin@example.com');
  // A few paid orders, so the orders list has something to say.
  for (let i = 0; i < 3; i++) {
    const started = await app.inject({
      method: 'POST',
      url: '/api/checkout',
      headers: { ...headers, cookie: customer },
      payload: { productId: 'isp_proxies', quantity: 10 },
    });
    const id = (started.json() as { checkoutUrl: string }).checkoutUrl.split('/sandbox/checkout/')[1];
    await app.inject({
      method: 'POST',
      url: `/api/sandbox/checkout/${id}/pay`,
      headers: { ...headers, cookie: customer },
      payload: { card: 'ok' },
    });
  }
  await app.close();
  await database.close();
  return { customer, admin };
}

interface RouteFigures {
  route: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(base: string, sessions: Sessions): Promise<RouteFigures[]> {
  const json = { 'content-type': 'application/json', origin: base };
  const routes: { route: string; options: autocannon.Options }[] = [
    { route: 'GET / (landing)', options: { url: `${base}/` } },
    { route: 'GET /api/pricing', options: { url: `${base}/api/pricing` } },
    {
      route: 'POST /api/auth/sign-in/email',
      options: {
        url: `${base}/api/auth/sign-in/email`,
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: 'load-customer@example.com', password: PASSWORD }),
      },
    },
    { route: 'GET /api/orders', options: { url: `${base}/api/orders`, headers: { cookie: sessions.customer } } },
    {
      route: 'POST /api/checkout',
      options: {
        url: `${base}/api/checkout`,
        method: 'POST',
        headers: { ...json, cookie: sessions.customer },
        body: JSON.stringify({ productId: 'isp_proxies', quantity: 5 }),
      },
    },
    {
      route: 'GET /api/admin/users',
      options: { url: `${base}/api/admin/users?email=load-customer@example.com`, headers: { cookie: sessions.admin } },
    },
    {
      route: 'GET /api/admin/stocks/pk1',
      options: { url: `${base}/api/admin/stocks/pk1`, headers: { cookie: sessions.admin } },
    },
  ];
  // A short warm-up of every route, then all of them at once.
  await Promise.all(
    routes.map(({ options }) => autocannon({ ...options, connections: CONNECTIONS_PER_ROUTE, duration: 2 })),
  );
  const results = await Promise.all(
    routes.map(({ options }) => autocannon({ ...options, connections: CONNECTIONS_PER_ROUTE, duration: SECONDS })),
  );
  return results.map((result, i) => ({
    route: routes[i]?.route ?? '',
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  }));
}

function print(label: string, rows: RouteFigures[]) {
  console.log(`\n${label}`);
  console.log(`  ${'route'.padEnd(32)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} errors`);
  for (const row of rows) {
    console.log(
      `  ${row.route.padEnd(32)} ${row.rps.toFixed(0).padStart(8)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${row.errors}`,
    );
  }
  const total = rows.reduce((sum, row) => sum + row.rps, 0);
  console.log(`  ${'all routes together'.padEnd(32)} ${total.toFixed(0).padStart(8)}`);
}

const base = `http://127.0.0.1:${PORT}`;
const connections = CONNECTIONS_PER_ROUTE * 7;
const databases = (process.env.LOAD_DATABASES ?? 'pglite,postgres').split(',');
let errors = 0;
console.log(
  `Mixed load: ${SECONDS} s, ${CONNECTIONS_PER_ROUTE} connections on each of 7 routes (${connections} in all).`,
);
for (const kind of databases) {
  const dir = kind === 'pglite' ? mkdtempSync(path.join(tmpdir(), 'storefront-load-')) : '';
  const bench = kind === 'postgres' ? await createBenchDatabase() : undefined;
  const url = bench ? bench.url : `pglite:${dir}`;
  try {
    const sessions = await prepareShop(url, base);
    const server = await startServer(PORT, url, { ...LIMITS, AUTH_SECRET, JOBS_INTERVAL_S: '0' });
    try {
      const rows = await measure(base, sessions);
      print(kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL', rows);
      errors += rows.reduce((sum, row) => sum + row.errors, 0);
      const figures = rows.map((row) => [
        row.route,
        `${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.errors} errors`,
      ]);
      recordProof('load', Object.fromEntries(figures), kind === 'pglite' ? 'PGlite' : 'PostgreSQL');
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await bench?.drop().catch(() => {});
  }
}

const hello = await startHelloWorld(PORT + 5);
try {
  await autocannon({ url: `http://127.0.0.1:${PORT + 5}/`, connections, duration: 2 });
  const result = await autocannon({ url: `http://127.0.0.1:${PORT + 5}/`, connections, duration: SECONDS });
  console.log(
    `\nBare Fastify hello-world, ${connections} connections, ${SECONDS} s: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
  );
  recordProof(
    'load: bare Fastify hello-world',
    {
      'GET /': `${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
    },
    'none',
  );
} finally {
  hello.kill('SIGTERM');
}
if (errors > 0) {
  console.error(`\n${errors} errors under load.`);
  process.exitCode = 1;
}
