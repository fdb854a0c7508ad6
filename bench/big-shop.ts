// A big shop against a small one: fills a throwaway PostgreSQL database by SQL with 1,000,000 IPs, 100,000 customers,
// 300,000 orders with their payments, redemptions, audit log and residential usage (big-shop-fill.ts), starts the built app on it and on a
// demo-seeded database, and times every GET the customer dashboard and the admin console make (p50, p95, answer size).
//   npm run build && node bench/big-shop.ts    (BENCH_DATABASE_URL: the PostgreSQL server, as the other benches)
//   BIG_SHOP_IPS=100000 BIG_SHOP_CUSTOMERS=10000 scale it down (quick to try); BIG_SHOP_KEEP=1 keeps the big database.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import pg, { type QueryResultRow } from 'pg';
import { chromium, type Locator, type Page } from 'playwright-core';
import { loadConfig } from '../apps/server/src/config.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';
import { type BenchDatabase, createBenchDatabase } from './bench-database.ts';
import { AUDIT_ENTRIES, CUSTOMERS, fillBigShop, IPS, ORDERS } from './big-shop-fill.ts';
import { BENCH_PASSWORD } from './shop.ts';
import { startServer, stopProcess } from './start-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const KEEP = process.env.BIG_SHOP_KEEP === '1';
const BIG_PORT = 3340;
const SMALL_PORT = 3342;
const ADMIN_EMAIL = 'big-shop-admin@example.com';
const REGULAR_EMAIL = 'big-shop-customer@example.com';
const TEN_K_EMAIL = 'big-shop-10k@example.com';
const SAMPLES = 50;
const SAMPLING_CAP_MS = 30_000;

// ---------------------------------------------------------------------------------------------------------------------
// Customers and administrators: signed up through the API, given their data by SQL.

/** The session cookies of an answer (every `name=value`, as a browser would send them back). */
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .filter(Boolean)
    .join('; ');

async function signUp(base: string, email: string): Promise<void> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password: BENCH_PASSWORD, name: 'bench' }),
  });
  if (!response.ok) throw new Error(`sign-up of ${email} failed: ${response.status} ${await response.text()}`);
}

async function signIn(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  return cookiesOf(response);
}

const one = async <T extends QueryResultRow>(client: pg.Client, text: string, values: unknown[] = []) => {
  const { rows } = await client.query<T>(text, values);
  if (!rows[0]) throw new Error(`no row: ${text.trim().slice(0, 80)}`);
  return rows[0];
};

/** A confirmed account made by the sign-up, signed in (an address in ADMIN_EMAILS gets the admin role here). */
async function signedUp(base: string, client: pg.Client, email: string): Promise<{ cookie: string; userId: string }> {
  await signUp(base, email);
  const { id } = await one<{ id: string }>(
    client,
    'update users set email_verified = true where email = $1 returning id',
    [email],
  );
  return { cookie: await signIn(base, email), userId: id };
}

/**
 * A filled customer becomes the account `email` signs in to: the sign-up's password login moves to them, and the
 * sign-up's own (empty) user goes. Their orders, payments, usage, keys and settings stay as the fill made them.
 */
async function takeOverFilledCustomer(base: string, client: pg.Client, email: string, filledId: string) {
  await signUp(base, email);
  await client.query('begin');
  try {
    const { id } = await one<{ id: string }>(client, 'select id from users where email = $1', [email]);
    await client.query(`delete from accounts where user_id = $1 and provider_id = 'credential'`, [filledId]);
    await client.query('update accounts set user_id = $1, account_id = $1 where user_id = $2', [filledId, id]);
    await client.query('delete from users where id = $1', [id]);
    await client.query(`update users set email = $1, email_verified = true, name = 'bench' where id = $2`, [
      email,
      filledId,
    ]);
    await client.query(
      'update coupon_redemptions set email = $1 where order_id in (select id from orders where user_id = $2)',
      [email, filledId],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
  return { cookie: await signIn(base, email), userId: filledId };
}

/**
 * A filled customer with about `orders` orders, preferring one who has live proxies, residential usage and an API key
 * (the dashboard then shows every part), and not one in `besides`.
 */
async function pickFilledCustomer(client: pg.Client, orders: number, besides: string[] = []): Promise<string> {
  const { user_id } = await one<{ user_id: string }>(
    client,
    `with c as (select user_id, count(*) as n from orders group by user_id)
     select c.user_id from c
     where not (c.user_id = any($2::text[]))
     order by (exists (select 1 from residential_usage_daily d where d.user_id = c.user_id))::int
       + (exists (select 1 from orders o where o.user_id = c.user_id and o.status = 'delivered'
            and o.product_id <> 'residential_proxies'))::int
       + (exists (select 1 from api_keys k where k.user_id = c.user_id))::int desc,
       abs(c.n - $1), c.user_id
     limit 1`,
    [orders, besides],
  );
  return user_id;
}

/** A live Elite ISP order of `quantity` IPs for the customer, its IPs taken from the pool (oldest first) and paid. */
async function addLargeOrder(client: pg.Client, userId: string, quantity: number, appUrl: string) {
  const { available } = await one<{ available: number }>(
    client,
    `select count(*)::int as available from proxy_ips
     where product_id = 'isp_proxies' and assigned_order_id is null and need_rotated = false`,
  );
  if (available < quantity) {
    // A scaled-down pool: a fresh upload of the missing IPs (in 100.127.x, past the fill's subnets).
    await client.query(
      `insert into proxy_ips (product_id, ip, port, username, password, endpoint, subnet)
       select 'isp_proxies', ip, 8000, 'up', 'uploadpass', ip || ':8000:up:uploadpass', subnet
       from generate_series(0, $1 - 1) i
       cross join lateral (select '100.127.' || (i / 250) || '.' || (i % 250 + 1) as ip, '100.127.' || (i / 250) || '.0/24' as subnet) x`,
      [quantity - available],
    );
  }
  const { id } = await one<{ id: string }>(
    client,
    `insert into orders (user_id, product_id, quantity, status, purchased_at, expires_at, unit_price_cents, total_cents,
       provider, provider_checkout_id, sandbox_card, created_at, updated_at)
     values ($1, 'isp_proxies', $2, 'delivered', now() - interval '10 days', now() - interval '10 days' + interval '1 month',
       250, 250 * $2, 'sandbox', 'cs_sandbox_' || substr(md5(random()::text), 1, 24), 'ok', now() - interval '10 days',
       now() - interval '10 days')
     returning id`,
    [userId, quantity],
  );
  await client.query(
    `update proxy_ips set assigned_order_id = $1 where id in (
       select id from proxy_ips where product_id = 'isp_proxies' and assigned_order_id is null and need_rotated = false
       order by created_at, id limit $2)`,
    [id, quantity],
  );
  const invoice = `in_sandbox_${randomBytes(12).toString('hex')}`;
  await client.query(
    `insert into payments (order_id, user_id, kind, invoice_id, hosted_invoice_url, status, amount_cents, currency, paid_at)
     values ($1, $2, 'checkout', $3, $4, 'paid', 250 * $5, 'usd', now() - interval '10 days')`,
    [id, userId, invoice, `${appUrl}/sandbox/invoices/${invoice}`, quantity],
  );
}

/** Rows of a table as JSON objects, as json_populate_recordset takes them back. */
const rowsOf = async (client: pg.Client, text: string, values: unknown[]) =>
  (await client.query<{ r: Record<string, unknown> }>(text, values)).rows.map((row) => row.r);

const insertRows = async (client: pg.Client, table: string, rows: Record<string, unknown>[]) => {
  if (rows.length === 0) return;
  await client.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [
    JSON.stringify(rows),
  ]);
};

/**
 * The small shop's copy of a big-shop customer, for `toUserId`: the same orders (dates, states, quantities), each live
 * order with as many IPs of the same shape, the same payments, redemptions (of the demo code), residential account and
 * usage, API keys and settings. The two shops then answer the same customer: only the shop around them differs.
 */
async function copyCustomer(from: pg.Client, fromUserId: string, to: pg.Client, toUserId: string, toEmail: string) {
  const orderRows = await rowsOf(from, 'select row_to_json(o) as r from orders o where user_id = $1', [fromUserId]);
  const ids = new Map<string, string>();
  const { id: demoCode } = await one<{ id: string }>(to, 'select id from promo_codes order by created_at limit 1');
  for (const row of orderRows) {
    const id = randomUUID();
    ids.set(String(row.id), id);
    Object.assign(row, {
      id,
      user_id: toUserId,
      promo_code_id: row.promo_code_id ? demoCode : null,
      provider_checkout_id: row.provider_checkout_id ? `cs_sandbox_${randomBytes(12).toString('hex')}` : null,
    });
  }
  await insertRows(to, 'orders', orderRows);
  const counts = (
    await from.query<{ order_id: string; n: number }>(
      `select assigned_order_id as order_id, count(*)::int as n from proxy_ips
       where assigned_order_id = any($1::uuid[]) group by assigned_order_id`,
      [[...ids.keys()]],
    )
  ).rows;
  const { next } = await one<{ next: number }>(to, `select count(*)::int as next from proxy_ips where ip like '10.%'`);
  let offset = next;
  for (const { order_id, n } of counts) {
    const order = orderRows.find((row) => row.id === ids.get(order_id));
    await to.query(
      `insert into proxy_ips (product_id, ip, port, username, password, endpoint, subnet, assigned_order_id)
       select $1, ip, port, username, password, ip || ':' || port || ':' || username || ':' || password, subnet, $2
       from generate_series($3::int, $3::int + $4 - 1) v
       cross join lateral (select '10.' || (v / 62500) || '.' || (v / 250 % 250) || '.' || (v % 250 + 1) as ip,
         '10.' || (v / 62500) || '.' || (v / 250 % 250) || '.0/24' as subnet, 10000 + (v::bigint * 7919) % 50000 as port,
         'u' || substr(md5(v::text), 1, 8) as username, substr(md5(v || 'p'), 1, 14) as password) x`,
      [order?.product_id, ids.get(order_id), offset, n],
    );
    offset += n;
  }
  const remap = (rows: Record<string, unknown>[], extra: (row: Record<string, unknown>) => Record<string, unknown>) =>
    rows.map((row) => ({ ...row, ...extra(row) }));
  const payments = await rowsOf(from, 'select row_to_json(p) as r from payments p where user_id = $1', [fromUserId]);
  await insertRows(
    to,
    'payments',
    remap(payments, (row) => {
      const invoice = `in_sandbox_${randomBytes(12).toString('hex')}`;
      return {
        id: randomUUID(),
        order_id: ids.get(String(row.order_id)),
        user_id: toUserId,
        invoice_id: invoice,
        hosted_invoice_url: `http://127.0.0.1:${SMALL_PORT}/sandbox/invoices/${invoice}`,
      };
    }),
  );
  const redemptions = await rowsOf(
    from,
    'select row_to_json(c) as r from coupon_redemptions c join orders o on o.id = c.order_id where o.user_id = $1',
    [fromUserId],
  );
  await insertRows(
    to,
    'coupon_redemptions',
    remap(redemptions, (row) => ({
      id: randomUUID(),
      promo_code_id: demoCode,
      order_id: ids.get(String(row.order_id)),
      email: toEmail,
    })),
  );
  await to.query(
    'update promo_codes set times_redeemed = (select count(*) from coupon_redemptions where promo_code_id = $1) where id = $1',
    [demoCode],
  );
  const byUser = (table: string) =>
    rowsOf(from, `select row_to_json(t) as r from ${table} t where user_id = $1`, [fromUserId]);
  await insertRows(
    to,
    'residential_accounts',
    remap(await byUser('residential_accounts'), () => ({
      user_id: toUserId,
      username: `res${randomBytes(6).toString('hex')}`,
    })),
  );
  for (const table of ['residential_usage_daily', 'residential_usage_hourly', 'residential_usage_domains']) {
    await insertRows(
      to,
      table,
      remap(await byUser(table), () => ({ user_id: toUserId })),
    );
  }
  await insertRows(
    to,
    'api_keys',
    remap(await byUser('api_keys'), () => ({
      id: randomUUID(),
      user_id: toUserId,
      key_hash: randomBytes(32).toString('base64url'),
    })),
  );
  await insertRows(
    to,
    'customer_preferences',
    remap(await byUser('customer_preferences'), () => ({ user_id: toUserId })),
  );
  await insertRows(
    to,
    'authorized_ips',
    remap(await byUser('authorized_ips'), () => ({ user_id: toUserId })),
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// The calls.

interface Answer {
  status: number;
  ms: number;
  body: Buffer;
  encoding: string | undefined;
  etag: string | undefined;
}

const agents = new Map<string, http.Agent>();

/** One GET as a browser makes it (compressed answers accepted), timed to the answer's last byte. */
function get(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(path, base);
  let agent = agents.get(base);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.set(base, agent);
  }
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const request = http.get(
      url,
      { agent, headers: { accept: 'application/json', 'accept-encoding': 'br, gzip', ...headers }, timeout: 300_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            ms: performance.now() - start,
            body: Buffer.concat(chunks),
            encoding: response.headers['content-encoding'],
            etag: response.headers.etag,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out after 300 s')));
    request.on('error', reject);
  });
}

const decodedSize = (answer: Answer) =>
  answer.encoding === 'br'
    ? zlib.brotliDecompressSync(answer.body).length
    : answer.encoding === 'gzip'
      ? zlib.gunzipSync(answer.body).length
      : answer.body.length;

interface Stats {
  p50: number;
  p95: number;
  samples: number;
  bytes: number;
  wireBytes: number;
  status: number;
  error?: string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;

interface Shop {
  name: string;
  base: string;
  port: number;
  url: string;
  server: Awaited<ReturnType<typeof startServer>>;
  env: Record<string, string>;
  restarts: number;
}

const alive = (shop: Shop) => shop.server.exitCode === null && shop.server.signalCode === null;

/** A few warm-up requests, then up to SAMPLES sequential ones within SAMPLING_CAP_MS (at least one). */
async function measure(shop: Shop, path: string, headers: Record<string, string>, expect = 200): Promise<Stats> {
  try {
    const warmStart = performance.now();
    let first: Answer | undefined;
    for (let i = 0; i < 3 && performance.now() - warmStart < 5_000; i++) {
      first = await get(shop.base, path, headers);
    }
    if (!first || first.status !== expect) {
      const text = first ? first.body.toString('utf8', 0, 200) : '';
      return { p50: 0, p95: 0, samples: 0, bytes: 0, wireBytes: 0, status: first?.status ?? 0, error: text };
    }
    const times: number[] = [];
    const start = performance.now();
    let last = first;
    while (times.length < SAMPLES && (times.length === 0 || performance.now() - start < SAMPLING_CAP_MS)) {
      last = await get(shop.base, path, headers);
      times.push(last.ms);
    }
    times.sort((a, b) => a - b);
    return {
      p50: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      samples: times.length,
      bytes: decodedSize(last),
      wireBytes: last.body.length,
      status: last.status,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!alive(shop)) {
      console.error(`${shop.name}: the server died on GET ${path} (${message}); starting it again`);
      shop.restarts += 1;
      shop.server = await startServer(shop.port, shop.url, shop.env);
      return { p50: 0, p95: 0, samples: 0, bytes: 0, wireBytes: 0, status: 0, error: `server died: ${message}` };
    }
    return { p50: 0, p95: 0, samples: 0, bytes: 0, wireBytes: 0, status: 0, error: message };
  }
}

interface Call {
  label: string;
  /** The path and headers on each shop. */
  big: { path: string; headers: Record<string, string>; expect?: number };
  small: { path: string; headers: Record<string, string>; expect?: number };
}

const memoryOf = (pid: number | undefined) => {
  if (!pid) return { peakMb: 0, nowMb: 0 };
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peakMb: Math.round(kb('VmHWM') / 1024), nowMb: Math.round(kb('VmRSS') / 1024) };
};

const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`);
const size = (bytes: number) =>
  bytes >= 1_048_576
    ? `${(bytes / 1_048_576).toFixed(1)} MB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${bytes} B`;

// ---------------------------------------------------------------------------------------------------------------------
// The run.

function ensureBuilt() {
  if (existsSync(path.join(root, 'apps/web/dist/index.html'))) return;
  for (let attempt = 1; attempt <= 3; attempt++) {
    console.log(`apps/web/dist is missing: npm run build (attempt ${attempt})`);
    const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (result.status === 0 && existsSync(path.join(root, 'apps/web/dist/index.html'))) return;
    // Another engineer's build may be writing the same folder: wait and try again.
    spawnSync('sleep', ['20']);
  }
  throw new Error('the web app could not be built (npm run build)');
}

ensureBuilt();
const appUrl = (port: number) => `http://127.0.0.1:${port}`;
let big: BenchDatabase | undefined;
let small: BenchDatabase | undefined;
const shops: Shop[] = [];
const clients: pg.Client[] = [];
let bigUrl = '';
try {
  big = await createBenchDatabase();
  small = await createBenchDatabase();
  bigUrl = big.url;
  console.log(
    `Filling the big shop (${IPS.toLocaleString('en-US')} IPs, ${CUSTOMERS.toLocaleString('en-US')} customers, ` +
      `${ORDERS.toLocaleString('en-US')} orders, ${AUDIT_ENTRIES.toLocaleString('en-US')} audit entries):`,
  );
  const fillStart = performance.now();
  const timings = await fillBigShop(big.url, appUrl(BIG_PORT));
  const fillSeconds = (performance.now() - fillStart) / 1000;
  console.log(`  ${fillSeconds.toFixed(1).padStart(6)} s  the whole fill`);

  const bigClient = new pg.Client({ connectionString: big.url });
  const smallClient = new pg.Client({ connectionString: small.url });
  clients.push(bigClient, smallClient);
  await bigClient.connect();
  await smallClient.connect();

  // The small shop: the demo inventory, as a new database gets it with SEED_DEMO (the bench database was seeded without):
  // the catalogue's rows removed, seedDatabase sees a new database.
  await smallClient.query('delete from feature_flags; delete from residential_pool; delete from products');
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: small.url, WEB_DIST_DIR: '/nonexistent' });
  const seeded = await seedDatabase(small.database.db, { pricesCents: config.pricesCents, seedDemo: true });
  await smallClient.query('vacuum analyze');
  console.log(`Small shop: the demo seed (${seeded.demoIps} IPs, the WELCOME10 code, a 500 GB residential pool)`);

  // No metrics listener: its fixed port is another server's (the two shops', other benchmarks').
  const env = { ADMIN_EMAILS: ADMIN_EMAIL, METRICS_PORT: '0' };
  for (const [name, port, url] of [
    ['big', BIG_PORT, big.url],
    ['small', SMALL_PORT, small.url],
  ] as const) {
    const start = performance.now();
    const server = await startServer(port, url, env);
    console.log(`${name} shop: server ready in ${((performance.now() - start) / 1000).toFixed(1)} s`);
    shops.push({ name, base: appUrl(port), port, url, server, env, restarts: 0 });
  }
  const [bigShop, smallShop] = shops as [Shop, Shop];

  // The customers: on the big shop filled ones (one with a usual number of orders, one with a few orders and an order
  // of 10,000 IPs); on the small shop the same customers copied.
  const regularId = await pickFilledCustomer(bigClient, 10);
  const tenKId = await pickFilledCustomer(bigClient, 4, [regularId]);
  await addLargeOrder(bigClient, tenKId, 10_000, appUrl(BIG_PORT));
  const bigRegular = await takeOverFilledCustomer(bigShop.base, bigClient, REGULAR_EMAIL, regularId);
  const bigTenK = await takeOverFilledCustomer(bigShop.base, bigClient, TEN_K_EMAIL, tenKId);
  const smallRegular = await signedUp(smallShop.base, smallClient, REGULAR_EMAIL);
  const smallTenK = await signedUp(smallShop.base, smallClient, TEN_K_EMAIL);
  await copyCustomer(bigClient, regularId, smallClient, smallRegular.userId, REGULAR_EMAIL);
  await copyCustomer(bigClient, tenKId, smallClient, smallTenK.userId, TEN_K_EMAIL);
  await smallClient.query('analyze');
  const bigAdmin = await signedUp(bigShop.base, bigClient, ADMIN_EMAIL);
  const smallAdmin = await signedUp(smallShop.base, smallClient, ADMIN_EMAIL);
  const profile = async (client: pg.Client, userId: string) =>
    one<{ orders: number; live_ips: number; payments: number; usage_days: number }>(
      client,
      `select (select count(*)::int from orders where user_id = $1) as orders,
         (select count(*)::int from proxy_ips p join orders o on o.id = p.assigned_order_id where o.user_id = $1) as live_ips,
         (select count(*)::int from payments where user_id = $1) as payments,
         (select count(*)::int from residential_usage_daily where user_id = $1) as usage_days`,
      [userId],
    );
  for (const [label, userId] of [
    ['customer', regularId],
    ['10k customer', tenKId],
  ] as const) {
    const p = await profile(bigClient, userId);
    console.log(
      `${label}: ${p.orders} orders, ${p.live_ips} IPs held, ${p.payments} payments, ${p.usage_days} days of residential usage`,
    );
  }

  // What the screens read (apps/web/src/features/*/api and lib/queries): the route list of packages/contract.
  // The oldest entry's position: the page after it is the deepest an administrator can page to (none in a log without
  // entries: the first page, then).
  const oldPage = async (client: pg.Client) => {
    const { rows } = await client.query<{ position: string }>(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '~' || id as position
         from admin_audit_log order by created_at, id limit 1`,
    );
    return rows[0] ? `/api/admin/audit-log?before=${encodeURIComponent(rows[0].position)}` : '/api/admin/audit-log';
  };
  const bigOldPage = await oldPage(bigClient);
  const smallOldPage = await oldPage(smallClient);
  const { subnet: bigPk1Subnet } = await one<{ subnet: string }>(
    bigClient,
    `select subnet from proxy_ips where product_id = 'pk1_isp_proxies' order by created_at, id limit 1`,
  );
  const { subnet: bigIspSubnet } = await one<{ subnet: string }>(
    bigClient,
    `select subnet from proxy_ips where product_id = 'isp_proxies' order by created_at, id limit 1`,
  );
  const withCookie = (cookie: string): Record<string, string> => (cookie ? { cookie } : {});
  const same = (path: string) => (bigCookie: string, smallCookie: string) => ({
    big: { path, headers: withCookie(bigCookie) },
    small: { path, headers: withCookie(smallCookie) },
  });
  const calls: Call[] = [
    { label: 'GET /api/pricing', ...same('/api/pricing')('', '') },
    { label: 'GET /api/features', ...same('/api/features')('', '') },
  ];
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const etags = new Map<string, string>();
  for (const [who, b, s] of [
    ['customer', bigRegular, smallRegular],
    ['10k customer', bigTenK, smallTenK],
  ] as const) {
    for (const path of [
      '/api/user/auth',
      '/api/orders',
      '/api/orders/usage',
      '/api/orders/usage/daily',
      '/api/orders/history',
      '/api/orders/processing',
      '/api/proxy-list',
      '/api/user/authorized-ips',
      '/api/user/preferences',
      '/api/api-keys',
      // The Usage page's reads: a day by the hour, 30 days by the day, the 90 days the hourly rows are kept.
      '/api/usage?range=today&timeZone=Europe%2FBerlin',
      '/api/usage?range=30d&timeZone=Europe%2FBerlin',
      `/api/usage?range=custom&from=${daysAgo(89)}&to=${daysAgo(0)}`,
    ]) {
      calls.push({ label: `${who}: GET ${path}`, ...same(path)(b.cookie, s.cookie) });
      if (path === '/api/orders') {
        // The dashboard's next read of the orders: the ETag sent back, answered 304 while nothing changed.
        for (const [shop, cookie] of [
          [bigShop, b.cookie],
          [smallShop, s.cookie],
        ] as const) {
          const answer = await get(shop.base, path, { cookie });
          etags.set(`${who}:${shop.name}`, answer.etag ?? '');
        }
        calls.push({
          label: `${who}: GET /api/orders (If-None-Match: 304)`,
          big: { path, headers: { cookie: b.cookie, 'if-none-match': etags.get(`${who}:big`) ?? '' }, expect: 304 },
          small: { path, headers: { cookie: s.cookie, 'if-none-match': etags.get(`${who}:small`) ?? '' }, expect: 304 },
        });
      }
    }
  }
  const admin = (path: string) => same(path)(bigAdmin.cookie, smallAdmin.cookie);
  calls.push(
    { label: 'admin: GET /api/user/auth', ...admin('/api/user/auth') },
    { label: 'admin: GET /api/admin/alerts', ...admin('/api/admin/alerts') },
    { label: 'admin: GET /api/admin/audit-log', ...admin('/api/admin/audit-log') },
    {
      label: 'admin: GET /api/admin/audit-log?before=<the oldest>',
      big: { path: bigOldPage, headers: { cookie: bigAdmin.cookie } },
      small: { path: smallOldPage, headers: { cookie: smallAdmin.cookie } },
    },
    {
      label: 'admin: GET /api/admin/audit-log?action=sandbox.clock',
      ...admin('/api/admin/audit-log?action=sandbox.clock'),
    },
    { label: 'admin: GET /api/admin/features', ...admin('/api/admin/features') },
    { label: 'admin: GET /api/admin/stocks/residential', ...admin('/api/admin/stocks/residential') },
    { label: 'admin: GET /api/admin/stocks/residential/daily', ...admin('/api/admin/stocks/residential/daily') },
    {
      label: 'admin: GET /api/admin/stocks/residential/top-customers',
      ...admin('/api/admin/stocks/residential/top-customers'),
    },
  );
  for (const [pool, bigSubnet, smallSubnet] of [
    ['isp', bigIspSubnet, '192.0.2.0/24'],
    ['pk1', bigPk1Subnet, '203.0.113.0/24'],
  ] as const) {
    calls.push(
      { label: `admin: GET /api/admin/stocks/${pool}`, ...admin(`/api/admin/stocks/${pool}`) },
      {
        label: `admin: GET /api/admin/stocks/${pool}/burnt.txt (every burnt IP)`,
        ...admin(`/api/admin/stocks/${pool}/burnt.txt`),
      },
      {
        label: `admin: GET /api/admin/ips/${pool}/subnets (a page, the console's list)`,
        ...admin(`/api/admin/ips/${pool}/subnets`),
      },
      {
        label: `admin: GET /api/admin/ips/${pool}/subnets?after=<a position>`,
        big: {
          path: `/api/admin/ips/${pool}/subnets?after=${encodeURIComponent(bigSubnet)}`,
          headers: { cookie: bigAdmin.cookie },
        },
        small: {
          path: `/api/admin/ips/${pool}/subnets?after=${encodeURIComponent(smallSubnet)}`,
          headers: { cookie: smallAdmin.cookie },
        },
      },
      {
        label: `admin: GET /api/admin/ips/${pool}/subnets?state=burnt`,
        ...admin(`/api/admin/ips/${pool}/subnets?state=burnt`),
      },
      {
        label: `admin: GET /api/admin/ips/${pool}/subnets?search=<an IP>`,
        big: {
          path: `/api/admin/ips/${pool}/subnets?search=${bigSubnet.replace('.0/24', '.7')}`,
          headers: { cookie: bigAdmin.cookie },
        },
        small: {
          path: `/api/admin/ips/${pool}/subnets?search=${smallSubnet.replace('.0/24', '.7')}`,
          headers: { cookie: smallAdmin.cookie },
        },
      },
      {
        label: `admin: GET /api/admin/ips/${pool}/subnets?customer=<e-mail>`,
        ...admin(`/api/admin/ips/${pool}/subnets?customer=${encodeURIComponent(REGULAR_EMAIL)}`),
      },
      {
        label: `admin: GET /api/admin/ips/${pool}/subnets?subnet=<one> (a card opened)`,
        big: {
          path: `/api/admin/ips/${pool}/subnets?subnet=${encodeURIComponent(bigSubnet)}`,
          headers: { cookie: bigAdmin.cookie },
        },
        small: {
          path: `/api/admin/ips/${pool}/subnets?subnet=${encodeURIComponent(smallSubnet)}`,
          headers: { cookie: smallAdmin.cookie },
        },
      },
    );
  }
  calls.push(
    {
      label: 'admin: GET /api/admin/users?email=<customer>',
      ...admin(`/api/admin/users?email=${encodeURIComponent(REGULAR_EMAIL)}`),
    },
    // The customer search of Custom Ordering: an exact e-mail, the start of an e-mail, the start of a name.
    ...[REGULAR_EMAIL.toUpperCase(), 'customer4242', 'customer 4242'].map((q) => ({
      label: `admin: GET /api/admin/users/search?q=${q}`,
      ...admin(`/api/admin/users/search?q=${encodeURIComponent(q)}`),
    })),
    { label: 'admin: GET /api/admin/coupons', ...admin('/api/admin/coupons') },
    { label: 'admin: GET /api/admin/coupons/redemptions', ...admin('/api/admin/coupons/redemptions') },
    { label: 'admin: GET /api/admin/coupons/options', ...admin('/api/admin/coupons/options') },
  );

  console.log(
    `\nTiming ${calls.length} calls on both shops (up to ${SAMPLES} samples or ~30 s a call, after warm-ups)…`,
  );
  const rows: string[] = [];
  const flagged: string[] = [];
  for (const call of calls) {
    const b = await measure(bigShop, call.big.path, call.big.headers, call.big.expect);
    const s = await measure(smallShop, call.small.path, call.small.headers, call.small.expect);
    const flags: string[] = [];
    if (b.error) flags.push(`**big: ${b.status || 'no answer'} ${b.error.replace(/\|/g, '/').slice(0, 80)}**`);
    if (s.error) flags.push(`**small: ${s.status || 'no answer'} ${s.error.replace(/\|/g, '/').slice(0, 80)}**`);
    if (!b.error && b.p95 > 50) flags.push('p95 > 50 ms');
    if (!b.error && !s.error && b.p95 > 2 * s.p95) flags.push('> 2× small');
    if (b.bytes > 1_048_576) flags.push('answer > 1 MB');
    const ratio = !b.error && !s.error && s.p95 > 0 ? `${(b.p95 / s.p95).toFixed(1)}×` : '–';
    const row =
      `| ${call.label} | ${b.error ? '–' : ms(b.p50)} | ${b.error ? '–' : ms(b.p95)} | ` +
      `${s.error ? '–' : ms(s.p50)} | ${s.error ? '–' : ms(s.p95)} | ${ratio} | ` +
      `${b.error ? '–' : `${size(b.bytes)}${b.wireBytes !== b.bytes ? ` (${size(b.wireBytes)} sent)` : ''}`} | ` +
      `${b.samples}/${s.samples} | ${flags.length > 0 ? `⚠ ${flags.join(', ')}` : ''} |`;
    rows.push(row);
    if (flags.length > 0) flagged.push(call.label);
    console.log(
      `  ${call.label}: big p95 ${ms(b.p95)} (${b.samples}), small p95 ${ms(s.p95)} (${s.samples}) ${flags.join(', ')}`,
    );
  }

  // The screens in Chromium (no throttling): each admin tab and the 10,000-IP customer's Proxies page, from the
  // navigation to the moment its list or figures show, the median of three fresh loads, and the elements the page holds.
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const pageRows: string[] = [];
  try {
    const screens: { label: string; path: string; who: 'admin' | 'tenK'; ready: (page: Page) => Locator }[] = [
      ...(
        [
          ['inventory', (page: Page) => page.getByText(/^Burnt IPs \(/).first()],
          ['pk1_inventory_list', (page: Page) => page.locator('button[aria-controls^="subnet-pk1-"]').first()],
          ['custom_ordering', (page: Page) => page.getByLabel('Customer e-mail')],
          ['active_coupons', (page: Page) => page.getByRole('main').getByRole('row').nth(1)],
          ['coupon_redemptions', (page: Page) => page.getByRole('main').getByRole('row').nth(1)],
          // The small shop's log may have no entry yet: its words say so in the place of the table.
          [
            'audit_log',
            (page: Page) =>
              page.getByRole('main').getByRole('row').nth(1).or(page.getByText('No changes recorded yet.')),
          ],
        ] as const
      ).map(([tab, ready]) => ({
        label: `admin console: ${tab}`,
        path: `/dashboard/admin?tab=${tab}`,
        who: 'admin' as const,
        ready,
      })),
      {
        label: 'Proxies, the 10,000-IP customer',
        path: '/dashboard/proxies',
        who: 'tenK',
        // The orders show as cards, each with its proxies a page at a time once opened.
        ready: (page: Page) => page.getByRole('button', { name: 'Show proxies' }).first(),
      },
    ];
    for (const screen of screens) {
      const figures: string[] = [];
      for (const [shop, cookie] of [
        [bigShop, screen.who === 'admin' ? bigAdmin.cookie : bigTenK.cookie],
        [smallShop, screen.who === 'admin' ? smallAdmin.cookie : smallTenK.cookie],
      ] as const) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' });
        await context.addCookies(
          cookie.split('; ').map((pair) => {
            const [name, ...value] = pair.split('=');
            return { name: name ?? '', value: value.join('='), url: shop.base };
          }),
        );
        const page = await context.newPage();
        const times: number[] = [];
        let elements = 0;
        try {
          for (let run = 0; run < 3; run += 1) {
            const start = performance.now();
            await page.goto(`${shop.base}${screen.path}`);
            await screen.ready(page).waitFor({ timeout: 30_000 });
            times.push(performance.now() - start);
            elements = await page.evaluate(() => document.querySelectorAll('*').length);
          }
          times.sort((a, b) => a - b);
          figures.push(`${ms(times[1] ?? 0)}`, elements.toLocaleString('en-US'));
        } catch (error) {
          // Said in the table, so that one screen that never shows does not lose the calls' figures.
          figures.push(`**not shown: ${String(error).split('\n')[0]?.slice(0, 60)}**`, '–');
        } finally {
          await context.close();
        }
      }
      pageRows.push(`| ${screen.label} | ${figures.join(' | ')} |`);
      console.log(`  ${screen.label}: ${figures.join(', ')}`);
    }
  } finally {
    await browser.close();
  }

  console.log('\n## Fill of the big shop\n');
  console.log('| step | seconds |\n|---|---:|');
  for (const { step, seconds } of timings) console.log(`| ${step} | ${seconds.toFixed(1)} |`);
  console.log(`| **the whole fill** | **${fillSeconds.toFixed(1)}** |`);
  const counts = await one<Record<string, number>>(
    bigClient,
    `select (select count(*)::int from proxy_ips) as ips,
       (select count(*)::int from proxy_ips where assigned_order_id is not null) as assigned,
       (select count(*)::int from proxy_ips where need_rotated) as burnt,
       (select count(distinct subnet)::int from proxy_ips) as subnets,
       (select count(*)::int from users) as users, (select count(*)::int from orders) as orders,
       (select count(*)::int from orders where status = 'delivered') as delivered,
       (select count(*)::int from payments) as payments, (select count(*)::int from coupon_redemptions) as redemptions,
       (select count(*)::int from admin_audit_log) as audit, (select count(*)::int from residential_accounts) as residential,
       (select count(*)::int from residential_usage_daily) as usage_rows`,
  );
  console.log(
    `\nBig shop: ${Object.entries(counts)
      .map(([key, value]) => `${key} ${Number(value).toLocaleString('en-US')}`)
      .join(', ')}`,
  );
  console.log(
    `\n## Calls: big shop vs small shop (PostgreSQL both; p50/p95 to the last byte, answers br/gzip as a browser takes them)\n`,
  );
  console.log(
    '| call | big p50 | big p95 | small p50 | small p95 | big/small (p95) | answer size big | samples big/small | flags |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const row of rows) console.log(row);
  console.log(
    `\nFlags: p95 > 50 ms, p95 > 2× the small shop's, or an answer over 1 MB (decoded). ${flagged.length} of ${calls.length} calls flagged.`,
  );
  console.log('\n## Screens in Chromium (no throttling; median of three loads until the list or figures show)\n');
  console.log('| screen | big shop | elements | small shop | elements |\n|---|---:|---:|---:|---:|');
  for (const row of pageRows) console.log(row);
  for (const shop of shops) {
    const memory = memoryOf(shop.server.pid);
    console.log(
      `${shop.name} shop server: peak RSS ${memory.peakMb} MB, now ${memory.nowMb} MB` +
        `${shop.restarts > 0 ? `, restarted ${shop.restarts}× after dying` : ''}`,
    );
  }
} catch (error) {
  // Said here: the kept database's exit below would otherwise end the process before the error is printed.
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const shop of shops) await stopProcess(shop.server);
  for (const agent of agents.values()) agent.destroy();
  for (const client of clients) await client.end().catch(() => {});
  await small?.drop();
  if (big && KEEP) {
    // Renamed out of the benchmarks' pattern, so that the next benchmark's clean-up leaves it.
    await big.database.close();
    const admin = new pg.Client({
      connectionString: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    });
    await admin.connect();
    const kept = `big_shop_${randomBytes(4).toString('hex')}`;
    const from = new URL(bigUrl).pathname.slice(1);
    await admin.query(`alter database ${admin.escapeIdentifier(from)} rename to ${kept}`);
    await admin.end();
    const url = new URL(bigUrl);
    url.pathname = `/${kept}`;
    console.log(`\nBIG_SHOP_KEEP=1: the big shop's database is kept at ${url} (drop it with: dropdb ${kept})`);
    process.exit();
  } else {
    await big?.drop();
  }
}
