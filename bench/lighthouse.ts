// Lighthouse mobile runs with Debian's Chromium, on PostgreSQL: the landing page, then every page customers and
// administrators live in, signed in: Overview, Proxies holding an order of 10,000 proxies, Usage, Purchase, Order
// History, Settings, and each Admin tab. Prints each run's four scores and metrics, then the median run (by
// performance), as Lighthouse advises for a figure that varies with the machine's load, and at the end a table of the
// medians (page, performance, LCP, TBT, CLS) beside the targets and the load average. LH_RUNS (default 5) sets the runs
// per page; LH_PAGES=/,/dashboard/proxies picks pages; LH_DETAILS=1 also prints main-thread work, long tasks and
// metric weights; LH_SAVE=<folder> writes each run's whole report there as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { recordProof } from '../apps/server/src/test/proof-results.ts';
import { ADMIN_TABS } from '../apps/web/src/features/admin/admin-tabs.ts';
import { createBenchDatabase } from './bench-database.ts';
import { orderWithProxies, signedIn } from './shop.ts';
import { startServer } from './start-server.ts';

type Result = NonNullable<Awaited<ReturnType<typeof lighthouse>>>;
type Lhr = Result['lhr'];

const runs = Math.max(1, Number(process.env.LH_RUNS ?? 5));
// Lighthouse's default models a slow phone network from an unthrottled load ('simulate'); LH_THROTTLING=devtools has
// Chromium apply the same network and CPU limits to the load itself, so the browser's own ordering of requests counts.
const throttlingMethod = process.env.LH_THROTTLING === 'devtools' ? ('devtools' as const) : undefined;
const throttlingLabel = throttlingMethod ? 'applied throttling' : 'simulated throttling';
const score = (lhr: Lhr, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);

function printDetails({ audits, categories }: Lhr) {
  const bootup = audits['bootup-time']?.details as { items?: { url: string; scripting: number; total: number }[] };
  for (const item of bootup?.items ?? []) {
    console.log(`    bootup ${Math.round(item.total)} ms (scripting ${Math.round(item.scripting)} ms) ${item.url}`);
  }
  const longTasks = audits['long-tasks']?.details as { items?: { url: string; startTime: number; duration: number }[] };
  for (const task of longTasks?.items ?? []) {
    console.log(`    long task at ${Math.round(task.startTime)} ms: ${Math.round(task.duration)} ms ${task.url}`);
  }
  // What the largest paint was, and how its time splits (time to first byte, load delay, load time, render delay).
  const lcp = audits['largest-contentful-paint-element']?.details as
    | { items?: { items?: { node?: { snippet?: string; nodeLabel?: string }; phase?: string; timing?: number }[] }[] }
    | undefined;
  for (const table of lcp?.items ?? []) {
    for (const item of table.items ?? []) {
      if (item.node) console.log(`    LCP element: ${item.node.nodeLabel} ${item.node.snippet?.slice(0, 120)}`);
      if (item.phase) console.log(`    LCP ${item.phase}: ${Math.round(item.timing ?? 0)} ms`);
    }
  }
  for (const ref of categories.performance?.auditRefs ?? []) {
    if (!ref.weight) continue;
    const audit = audits[ref.id];
    console.log(`    ${ref.id}: ${audit?.displayValue} score ${audit?.score} weight ${ref.weight}`);
  }
}

function printRun(label: string, lhr: Lhr) {
  const { audits } = lhr;
  if (lhr.runtimeError)
    console.log(`  ${label}: Lighthouse failed: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  console.log(
    `  ${label}: performance ${score(lhr, 'performance')}  accessibility ${score(lhr, 'accessibility')}  best-practices ${score(lhr, 'best-practices')}  SEO ${score(lhr, 'seo')}  |  LCP ${audits['largest-contentful-paint']?.displayValue}  FCP ${audits['first-contentful-paint']?.displayValue}  TBT ${audits['total-blocking-time']?.displayValue}  CLS ${audits['cumulative-layout-shift']?.displayValue}`,
  );
}

const PORT = 3303;
const base = `http://127.0.0.1:${PORT}`;
const bench = await createBenchDatabase();
const server = await startServer(PORT, bench.url, { ADMIN_EMAILS: 'lh-admin@example.com' });
const customer = await signedIn(base, bench.database.db, 'lh-customer@example.com');
await orderWithProxies(bench.database.db, customer.userId, 10_000);
const admin = await signedIn(base, bench.database.db, 'lh-admin@example.com');
// The time zone a browser's page tells the server (lib/time-zone.ts), so the customer pages are drawn whole for their
// reader as in a browser that has been to the shop before; Chromium runs in this machine's zone.
const timeZoneCookie = `tz=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`;
const PAGES = [
  { path: '/', name: 'Landing', cookie: '' },
  { path: '/dashboard/overview', name: 'Overview', cookie: `${customer.cookie}; ${timeZoneCookie}` },
  { path: '/dashboard/proxies', name: 'Proxies (10,000)', cookie: `${customer.cookie}; ${timeZoneCookie}` },
  { path: '/dashboard/usage', name: 'Usage', cookie: `${customer.cookie}; ${timeZoneCookie}` },
  { path: '/dashboard/purchase', name: 'Purchase', cookie: `${customer.cookie}; ${timeZoneCookie}` },
  { path: '/dashboard/order-history', name: 'Order History', cookie: `${customer.cookie}; ${timeZoneCookie}` },
  { path: '/dashboard/settings', name: 'Settings', cookie: `${customer.cookie}; ${timeZoneCookie}` },
  ...ADMIN_TABS.map((tab) => ({
    path: tab.value === 'inventory' ? '/dashboard/admin' : `/dashboard/admin?tab=${tab.value}`,
    name: `Admin: ${tab.label}`,
    cookie: `${admin.cookie}; ${timeZoneCookie}`,
  })),
].filter((page) => !process.env.LH_PAGES || process.env.LH_PAGES.split(',').includes(page.path));

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
  ],
});
// Each run starts with exactly the page's cookies in the browser's jar, as a returning visitor's browser holds them
// (Lighthouse keeps cookies between runs, and a page writes its own: the time zone).
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
async function useCookies(cookieHeader: string) {
  await browser.deleteCookie(...(await browser.cookies()));
  const cookies = cookieHeader
    .split(';')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const [name = '', ...value] = pair.split('=');
      return { name, value: value.join('='), domain: '127.0.0.1', path: '/' };
    });
  if (cookies.length > 0) await browser.setCookie(...cookies);
}
const medians: { name: string; lhr: Lhr }[] = [];
try {
  for (const page of PAGES) {
    console.log(`Lighthouse (mobile, ${throttlingLabel}) of ${page.path}, ${runs} run${runs === 1 ? '' : 's'}:`);
    const results: Lhr[] = [];
    for (let run = 1; run <= runs; run++) {
      await useCookies(page.cookie);
      const result = await lighthouse(`${base}${page.path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        ...(throttlingMethod && { throttlingMethod }),
      });
      if (!result) throw new Error('Lighthouse returned nothing');
      printRun(`run ${run}`, result.lhr);
      if (process.env.LH_DETAILS) printDetails(result.lhr);
      if (process.env.LH_SAVE) {
        mkdirSync(process.env.LH_SAVE, { recursive: true });
        const file = `${page.path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'landing'}-${run}.json`;
        writeFileSync(path.join(process.env.LH_SAVE, file), JSON.stringify(result.lhr));
      }
      // A failed run (Lighthouse's trace broken on a busy machine) is left out of the median.
      if (!result.lhr.runtimeError) results.push(result.lhr);
    }
    const sorted = [...results].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    if (median) {
      printRun('median', median);
      medians.push({ name: page.name, lhr: median });
      recordProof(
        'Lighthouse (mobile)',
        {
          [page.path]: `performance ${score(median, 'performance')}, accessibility ${score(median, 'accessibility')}, best practices ${score(median, 'best-practices')}, SEO ${score(median, 'seo')}, LCP ${median.audits['largest-contentful-paint']?.displayValue}`,
        },
        'PostgreSQL',
      );
    }
  }
  // The targets: performance at least 95, LCP at most 2.0 s, TBT at most 150 ms, CLS at most 0.02.
  const numeric = (lhr: Lhr, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  console.log(
    `\nMedian of ${runs} run${runs === 1 ? '' : 's'} per page (Lighthouse mobile); load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')} at the end`,
  );
  console.log('| page | performance | LCP | TBT | CLS | on target |');
  console.log('|---|---|---|---|---|---|');
  for (const { name, lhr } of medians) {
    const performance = score(lhr, 'performance');
    const lcp = numeric(lhr, 'largest-contentful-paint');
    const tbt = numeric(lhr, 'total-blocking-time');
    const cls = numeric(lhr, 'cumulative-layout-shift');
    const onTarget = performance >= 95 && lcp <= 2000 && tbt <= 150 && cls <= 0.02;
    console.log(
      `| ${name} | ${performance} | ${(lcp / 1000).toFixed(1)} s | ${Math.round(tbt)} ms | ${cls.toFixed(3)} | ${onTarget ? 'yes' : 'no'} |`,
    );
  }
} finally {
  await browser.disconnect();
  await chrome.kill();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await bench.drop();
}
