// The periodic job at a peak, on the big shop (big-shop-fill.ts): PEAK_RENEWALS (20,000) sandbox renewals due within
// the same hour, charged and their receipts e-mailed to a local SMTP catcher by one job runner (`node apps/server/src/
// jobs.ts`, its default settings), then as many others by two runners at once. Before them: migration 0025's indexes
// built on the big shop and timed, pruning batches timed, the first run after the upgrade (the pruning backlog) timed,
// and the reminder's claim planned. Prints the figures; a receipt sent twice or a renewal charged twice is an error.
//   node bench/renewal-peak.ts    (BENCH_DATABASE_URL: the PostgreSQL server, as the other benches)
//   BIG_SHOP_URL=postgres://…/big_shop_x runs on a kept big shop instead of filling one (the run changes it).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { DEFAULT_RETENTION, pruneOldRows } from '../apps/server/src/modules/jobs/prune.ts';
import { type BenchDatabase, createBenchDatabase } from './bench-database.ts';
import { CUSTOMERS, fillBigShop, IPS } from './big-shop-fill.ts';
import { freePort, spawnOwned, stopProcess } from './start-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const RENEWALS = Number(process.env.PEAK_RENEWALS ?? 20_000);
if (!Number.isInteger(RENEWALS) || RENEWALS < 100 || RENEWALS > 200_000)
  throw new Error('PEAK_RENEWALS is a whole number 100–200000');
/** A peak not done in this time is reported as not done. */
const PEAK_CAP_MS = 45 * 60_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The SMTP catcher: every message received, by its Message-ID and subject, with the connections it had open. */
function smtpCatcher() {
  const received: { at: number; messageId: string; subject: string }[] = [];
  let open = 0;
  let mostOpen = 0;
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // The pool's connections stay open through a peak: no limit of the catcher's own.
    maxClients: 1000,
    onConnect(_session, callback) {
      connections += 1;
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      callback();
    },
    onClose() {
      open -= 1;
    },
    onData(stream, _session, callback) {
      let head = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        if (head.length < 4096) head += chunk;
      });
      stream.on('end', () => {
        received.push({
          at: performance.now(),
          messageId: /^Message-ID: (.*)$/im.exec(head)?.[1]?.trim() ?? '',
          subject: /^Subject: (.*)$/im.exec(head)?.[1]?.trim() ?? '',
        });
        callback();
      });
    },
  });
  return {
    received,
    stats: () => ({ mostOpen, connections }),
    resetStats: () => {
      mostOpen = open;
      connections = 0;
    },
    listen: (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A job runner as a release runs it (`node . jobs`), its log lines of runs kept. */
function startJobRunner(name: string, env: Record<string, string>, once = false) {
  const runner = spawnOwned(process.execPath, ['apps/server/src/jobs.ts', ...(once ? ['--once'] : [])], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const runs: Record<string, unknown>[] = [];
  const pruned: Record<string, number>[] = [];
  for (const stream of [runner.stdout, runner.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as {
          msg?: string;
          report?: Record<string, unknown>;
          pruned?: Record<string, number>;
          level?: number;
        };
        if (entry.msg === 'periodic job' && entry.report) runs.push(entry.report);
        else if (entry.pruned) pruned.push(entry.pruned);
        else if ((entry.level ?? 0) >= 50) console.log(`  [${name}] ${line.slice(0, 300)}`);
      } catch {
        console.log(`  [${name}] ${line.slice(0, 300)}`);
      }
    });
  }
  return { runner, runs, pruned };
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** Makes `count` live sandbox orders, none due for three days, due within the last hour: answers their ids. */
async function makeDue(client: pg.Client, count: number, besides: string[]): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `with picked as (
       select id from orders
       where status = 'delivered' and provider = 'sandbox' and sandbox_card = 'ok' and not cancelled
         and not payment_failed and expires_at > now() + interval '3 days' and id <> all($2::uuid[])
         -- Not one renewed during the run (its period end come naturally): moved back, it would be a made-up period.
         and not exists (select 1 from payments p where p.order_id = orders.id and p.created_at > now() - interval '1 day')
       order by md5(id::text) limit $1
     ), due as (select id, now() - random() * interval '1 hour' as t from picked)
     update orders o set expires_at = due.t, reminded_for = due.t from due where o.id = due.id returning o.id`,
    [count, besides],
  );
  await client.query('analyze orders');
  return rows.map((row) => row.id);
}

interface PeakResult {
  runners: number;
  renewals: number;
  renewedMs: number | undefined;
  mailedMs: number | undefined;
  receipts: number;
  runs: Record<string, unknown>[];
  mostOpen: number;
  connections: number;
}

/** Starts `runners` job runners over `ids` (due now) and waits until each is renewed and its receipt received. */
async function peak(
  client: pg.Client,
  catcher: ReturnType<typeof smtpCatcher>,
  env: Record<string, string>,
  ids: string[],
  runners: number,
): Promise<PeakResult> {
  const since = await client.query<{ now: Date }>('select now()');
  const startedAt = since.rows[0]?.now ?? new Date();
  const receiptsBefore = catcher.received.length;
  catcher.resetStats();
  const start = performance.now();
  const started = Array.from({ length: runners }, (_, n) => startJobRunner(`runner ${n + 1}`, env));
  let renewedMs: number | undefined;
  let mailedMs: number | undefined;
  let receipts = 0;
  let lastSaid = 0;
  while (performance.now() - start < PEAK_CAP_MS) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const renewed = Number(
      (
        await client.query<{ n: number }>(
          `select count(*)::int as n from payments where kind = 'renewal' and created_at >= $1 and order_id = any($2::uuid[])`,
          [startedAt, ids],
        )
      ).rows[0]?.n ?? 0,
    );
    if (renewed >= ids.length && renewedMs === undefined) renewedMs = performance.now() - start;
    receipts = catcher.received
      .slice(receiptsBefore)
      .filter((mail) => mail.subject.startsWith('Renewal receipt')).length;
    if (receipts >= ids.length && mailedMs === undefined) mailedMs = performance.now() - start;
    if (performance.now() - lastSaid > 30_000) {
      lastSaid = performance.now();
      console.log(`  ${seconds(performance.now() - start)}: ${renewed} renewed, ${receipts} receipts received`);
    }
    if (renewedMs !== undefined && mailedMs !== undefined) break;
    if (started.some(({ runner }) => runner.exitCode !== null)) throw new Error('a job runner exited during the peak');
  }
  const { mostOpen, connections } = catcher.stats();
  for (const { runner } of started) {
    await stopProcess(runner);
    await exited(runner);
  }
  return {
    runners,
    renewals: ids.length,
    renewedMs,
    mailedMs,
    receipts,
    runs: started.flatMap(({ runs }) => runs),
    mostOpen,
    connections,
  };
}

/** Builds migration 0025's indexes again on the filled shop, each timed (the migration's own statements, in order). */
async function timeMigration(client: pg.Client): Promise<{ index: string; table: string; rows: number; ms: number }[]> {
  const folder = path.join(root, 'apps/server/drizzle');
  const file = readdirSync(folder).find((name) => name.startsWith('0025_'));
  if (!file) throw new Error('migration 0025 is missing');
  const statements = readFileSync(path.join(folder, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((text) => text.replace(/^--.*$/gm, '').trim())
    .filter(Boolean);
  const timings: { index: string; table: string; rows: number; ms: number }[] = [];
  for (const statement of statements) {
    const match = /CREATE INDEX "([^"]+)" ON "([^"]+)"/i.exec(statement);
    if (!match?.[1] || !match[2]) continue;
    const [, index, table] = match;
    await client.query(`drop index if exists "${index}"`);
    const rows = Number((await client.query(`select count(*)::int as n from "${table}"`)).rows[0]?.n ?? 0);
    const start = performance.now();
    await client.query(statement);
    timings.push({ index, table, rows, ms: performance.now() - start });
  }
  await client.query('analyze');
  return timings;
}

/** The reminder's claim as it was (every order due in three days read and filtered) and as it is, by EXPLAIN ANALYZE. */
async function planReminder(client: pg.Client): Promise<{ form: string; ms: number; plan: string }[]> {
  const window = `expires_at > now() and expires_at <= now() + interval '3 days'`;
  const forms = {
    before: `select * from orders where status = 'delivered' and cancelled = false and payment_failed = false and ${window}
      and (reminded_for is null or reminded_for <> expires_at) order by expires_at, id limit 1 for update skip locked`,
    now: `select * from orders where status = 'delivered' and not cancelled and not payment_failed
      and reminded_for is distinct from expires_at and ${window} order by expires_at, id limit 1 for update skip locked`,
  };
  const out: { form: string; ms: number; plan: string }[] = [];
  for (const [form, query] of Object.entries(forms)) {
    await client.query('begin');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain analyze ${query}`);
    await client.query('rollback');
    const lines = rows.map((row) => row['QUERY PLAN']);
    const ms = Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? Number.NaN);
    out.push({
      form,
      ms,
      plan: lines
        .filter((line) => /Scan|Rows Removed/.test(line))
        .map((l) => l.trim())
        .join('; '),
    });
  }
  return out;
}

/** One batch of each table, `batches` times, timed: the longest a pruning statement takes on the big shop. */
async function timePruneBatches(database: Database, batches: number) {
  const times: number[] = [];
  let deleted = 0;
  for (let n = 0; n < batches; n++) {
    const start = performance.now();
    const counts = await pruneOldRows(
      { db: database.db, retention: { ...DEFAULT_RETENTION, batchesPerRun: 1 } },
      new Date(),
    );
    times.push(performance.now() - start);
    deleted += Object.values(counts).reduce((sum, value) => sum + value, 0);
  }
  return { times, deleted };
}

let bench: BenchDatabase | undefined;
let database: Database | undefined;
const catcher = smtpCatcher();
let client: pg.Client | undefined;
try {
  let url = process.env.BIG_SHOP_URL;
  if (!url) {
    bench = await createBenchDatabase();
    url = bench.url;
    console.log(
      `Filling the big shop (${IPS.toLocaleString('en-US')} IPs, ${CUSTOMERS.toLocaleString('en-US')} customers):`,
    );
    const fillStart = performance.now();
    await fillBigShop(url, 'http://127.0.0.1:3400');
    console.log(`  ${seconds(performance.now() - fillStart)}  the whole fill`);
  }
  const db = new pg.Client({ connectionString: url });
  client = db;
  await db.connect();

  console.log('\n## Migration 0025 on the big shop (each index dropped and built again by its statement)\n');
  console.log('| index | table rows | build (writes to the table wait) |\n|---|---:|---:|');
  for (const row of await timeMigration(db))
    console.log(`| \`${row.index}\` | ${row.rows.toLocaleString('en-US')} (${row.table}) | ${seconds(row.ms)} |`);

  console.log('\n## The reminder claim (EXPLAIN ANALYZE, one claim)\n');
  for (const row of await planReminder(db)) console.log(`- ${row.form}: ${row.ms} ms — ${row.plan}`);

  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, WEB_DIST_DIR: '/nonexistent' });
  database = await openDatabase(config.database);
  const batches = await timePruneBatches(database, 5);
  const sorted = [...batches.times].sort((a, b) => a - b);
  console.log(
    `\n## Pruning: 5 rounds of one ${DEFAULT_RETENTION.batchSize}-row batch of each table: ${batches.deleted} rows; ` +
      `a round ${sorted.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`,
  );

  const smtpPort = await freePort();
  await catcher.listen(smtpPort);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    DATABASE_URL: url,
    MIGRATE_ON_START: 'false',
    PAYMENTS_SANDBOX: 'true',
    SEED_DEMO: 'false',
    AUTH_SECRET: randomBytes(32).toString('base64'),
    APP_URL: 'http://127.0.0.1:3400',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    METRICS_PORT: '0',
    WEB_DIST_DIR: '/nonexistent',
    LOG_LEVEL: 'info',
  };

  // The first run after the upgrade: what the shop had due, and the pruning backlog (a year of sent e-mails).
  const firstStart = performance.now();
  const first = startJobRunner('first run', env, true);
  await exited(first.runner);
  console.log(
    `\n## The first run after the upgrade (\`jobs --once\`, default settings): ${seconds(performance.now() - firstStart)}\n` +
      `  report ${JSON.stringify(first.runs[0] ?? {})}\n  pruned ${JSON.stringify(first.pruned[0] ?? {})}`,
  );

  const results: PeakResult[] = [];
  const renewedBefore: string[] = [];
  for (const runners of [1, 2]) {
    const ids = await makeDue(db, RENEWALS, renewedBefore);
    renewedBefore.push(...ids);
    console.log(
      `\n## Peak: ${ids.length.toLocaleString('en-US')} renewals due within the hour, ${runners} job runner(s)`,
    );
    const result = await peak(db, catcher, env, ids, runners);
    results.push(result);
    const doubled = await db.query<{ n: number }>(
      `select count(*)::int as n from (select 1 from payments where order_id = any($1::uuid[])
         group by order_id, paid_at having count(*) > 1) d`,
      [ids],
    );
    console.log(
      `  renewed all in ${result.renewedMs === undefined ? 'NOT DONE' : seconds(result.renewedMs)}, ` +
        `receipts all received in ${result.mailedMs === undefined ? `NOT DONE (${result.receipts})` : seconds(result.mailedMs)}; ` +
        `runs ${result.runs.length}; SMTP connections: ${result.connections} opened, at most ${result.mostOpen} at once; ` +
        `periods charged twice: ${doubled.rows[0]?.n ?? '?'}`,
    );
  }
  const ids = new Map<string, number>();
  for (const mail of catcher.received) ids.set(mail.messageId, (ids.get(mail.messageId) ?? 0) + 1);
  const twice = [...ids.values()].filter((n) => n > 1).length;
  console.log(`\nE-mails received: ${catcher.received.length}; the same message twice: ${twice}`);
  console.log('\n| runners | renewals | all charged | all receipts received | receipts a second (whole peak) |');
  console.log('|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const rate = r.mailedMs ? (r.renewals / (r.mailedMs / 1000)).toFixed(1) : '–';
    console.log(
      `| ${r.runners} | ${r.renewals.toLocaleString('en-US')} | ${r.renewedMs ? seconds(r.renewedMs) : 'not done'} | ` +
        `${r.mailedMs ? seconds(r.mailedMs) : 'not done'} | ${rate} |`,
    );
  }
  if (twice > 0) process.exitCode = 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await catcher.close().catch(() => {});
  await client?.end().catch(() => {});
  await database?.close().catch(() => {});
  await bench?.drop().catch(() => {});
}
