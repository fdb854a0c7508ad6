// A customer holding 10,000 proxies: GET /api/orders latency (p50, p99) on PostgreSQL, read whole and right after a
// change of the order's IPs, then, in Chromium, the time to expand the order on the Proxies page and to build the
// 10,000-line download.
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import { proxyIps } from '../apps/server/src/db/schema.ts';
import { createBenchDatabase } from './bench-database.ts';
import { orderWithProxies, signedIn } from './shop.ts';
import { startServer, stopProcess } from './start-server.ts';

const PORT = 3304;

/** What the page records of the expanding click: its events' timing (Event Timing API) and when the viewer appeared. */
interface ExpandTiming {
  entries: { name: string; start: number; end: number; processingEnd: number }[];
  viewer: number;
  /** Approximately when the first frame after the viewer's arrival was painted (an animation frame, then a task). */
  viewerPainted: number;
}
const COUNT = 10_000;
const base = `http://127.0.0.1:${PORT}`;
const bench = await createBenchDatabase();
const { database } = bench;
const server = await startServer(PORT, bench.url);
try {
  const { cookie, userId } = await signedIn(base, database.db, 'bench@example.com');
  await orderWithProxies(database.db, userId, COUNT);

  const baseline = await autocannon({
    url: `${base}/api/orders/usage`,
    connections: 10,
    duration: Number(process.env.BENCH_SECONDS ?? 5),
    headers: { cookie },
  });
  console.log(
    `baseline GET /api/orders/usage (one residential account): p50 ${baseline.latency.p50} ms, p99 ${baseline.latency.p99} ms, ${baseline.requests.average.toFixed(0)} req/s`,
  );
  // As a tool reads it (no compression), then as a browser does (Accept-Encoding: br).
  for (const [connections, encoding] of [
    [1, undefined],
    [10, undefined],
    [1, 'br'],
    [10, 'br'],
  ] as const) {
    const result = await autocannon({
      url: `${base}/api/orders`,
      connections,
      duration: Number(process.env.BENCH_SECONDS ?? 5),
      headers: { cookie, ...(encoding && { 'accept-encoding': encoding }) },
    });
    if (result.non2xx > 0) throw new Error(`${result.non2xx} answers were not 2xx`);
    const bytes = result.requests.total > 0 ? result.throughput.total / result.requests.total : 0;
    console.log(
      `GET /api/orders, one order of ${COUNT} proxies (PostgreSQL, ${connections} connection${connections > 1 ? 's' : ''}` +
        `${encoding ? `, Accept-Encoding: ${encoding}` : ''}): p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
        `${result.requests.average.toFixed(0)} req/s, ${(bytes / 1024).toFixed(0)} KB an answer`,
    );
  }

  // The first read after a change of the order's IPs (its proxies_version rises): the list comes from the database.
  const cold: number[] = [];
  for (let i = 0; i < 30; i++) {
    await database.db
      .update(proxyIps)
      .set({ password: `secretpass${i}`, endpoint: `10.0.0.1:8000:user:secretpass${i}` })
      .where(eq(proxyIps.ip, '10.0.0.1'));
    const started = performance.now();
    const answer = await fetch(`${base}/api/orders`, { headers: { cookie } });
    await answer.arrayBuffer();
    cold.push(performance.now() - started);
  }
  cold.sort((a, b) => a - b);
  console.log(
    `GET /api/orders right after a change of the order's IPs 1 connection: ` +
      `p50 ${cold[15]?.toFixed(1)} ms, worst of 30 ${cold[29]?.toFixed(1)} ms`,
  );

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.addCookies([
      { name: cookie.split('=')[0] ?? '', value: cookie.split('=').slice(1).join('='), url: base },
    ]);
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/proxies`);
    const show = page.getByRole('button', { name: 'Show proxies' });
    await show.waitFor();
    // The page has loaded: measured is the expansion, not the end of the page's own loading.
    await page.waitForLoadState('networkidle');
    // The browser's own account of the click (the Event Timing API, as behind Interaction to Next Paint): from the
    // press to the first frame painted after the click's handlers ran, and when the viewer entered the page.
    await page.evaluate(() => {
      const timing: ExpandTiming = { entries: [], viewer: 0, viewerPainted: 0 };
      Object.assign(window, { expandTiming: timing });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as PerformanceEventTiming[])
          if (entry.interactionId > 0)
            timing.entries.push({
              name: entry.name,
              start: entry.startTime,
              end: entry.startTime + entry.duration,
              processingEnd: entry.processingEnd,
            });
      }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit); // durationThreshold: Event Timing, not yet in TypeScript's DOM types
      const observer = new MutationObserver(() => {
        if (!document.querySelector('section[aria-labelledby]')) return;
        timing.viewer = performance.now();
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => Object.assign(timing, { viewerPainted: performance.now() })));
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    let started = performance.now();
    await show.click();
    // Until the text viewer holds every line, not only until it appears.
    const viewer = page.getByRole('region', { name: 'All proxies (text)' });
    await viewer.waitFor();
    const shown = await viewer.evaluate((element) => (element.textContent ?? '').split('\n').length);
    if (shown !== COUNT) throw new Error(`the text viewer holds ${shown} lines, not ${COUNT}`);
    const driven = performance.now() - started;
    const timing = await page.waitForFunction(() => {
      const { expandTiming } = window as unknown as { expandTiming: ExpandTiming };
      return (
        expandTiming.entries.some((entry) => entry.name === 'click') && expandTiming.viewerPainted > 0 && expandTiming
      );
    });
    const { entries, viewer: viewerAt, viewerPainted } = (await timing.jsonValue()) as ExpandTiming;
    const press = Math.min(...entries.map((entry) => entry.start));
    const click = entries.find((entry) => entry.name === 'click');
    if (click && viewerAt <= click.processingEnd)
      console.log(
        `Chromium: expanding the order of ${COUNT} proxies, from the press to the frame that shows the list (Event Timing): ${(click.end - press).toFixed(0)} ms`,
      );
    else console.log(`Chromium: expanding the order of ${COUNT} proxies: the list came after the click's own frame`);
    console.log(
      `  from the press to the next animation frame after the list arrived, and a task: ${(viewerPainted - press).toFixed(0)} ms`,
    );
    console.log(
      `  the same, as the driver sees it (its actionability checks, the click, finding the viewer and reading its ${COUNT} lines back): ${driven.toFixed(0)} ms`,
    );
    started = performance.now();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download List' }).click(),
    ]);
    await download.path();
    console.log(`Chromium: the ${COUNT}-line download is ready in ${(performance.now() - started).toFixed(0)} ms`);
  } finally {
    await browser.close();
  }
} finally {
  await stopProcess(server);
  await bench.drop();
}
