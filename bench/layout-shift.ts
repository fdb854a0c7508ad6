// Layout shifts as a signed-in page's data arrives: each admin tab (an administrator) and the Proxies page (a customer
// holding an order), at 1280 and 375 px, drawn by the browser with the API's answers 400 ms late, on PostgreSQL
// (BENCH_DATABASE_URL, as the other benches). Prints page, width, CLS (every shift summed), what moved and whether it is
// within 0.02; fails only when a page does not load. Run: `npm run build && node bench/layout-shift.ts`.
import { paths } from '@storefront/contract';
import { type BrowserContext, chromium, type Route } from 'playwright-core';
import { ADMIN_TABS } from '../apps/web/src/features/admin/admin-tabs.ts';
import { createBenchDatabase } from './bench-database.ts';
import { orderWithProxies, signedIn } from './shop.ts';
import { startServer, stopProcess } from './start-server.ts';

const PORT = 3327; // its gateway on 3328
const base = `http://127.0.0.1:${PORT}`;
const ADMIN_EMAIL = 'layout-admin@example.com';
const WIDTHS = [1280, 375];
const DELAY_MS = 400;
const LIMIT = 0.02;
/** How many painted frames in a row must bring no new shift for the page to count as settled. */
const QUIET_FRAMES = 2;
const SETTLE_TIMEOUT_MS = 15_000;

/** One shift of the page, as kept in it. */
interface Shift {
  value: number;
  at: number;
  sources: { node: string; dx: number; dy: number }[];
}
/** What the page keeps of its shifts, from its start. */
interface ShiftRecord {
  shifts: Shift[];
  /** Animation frames begun since the last shift was taken in (every pending entry is taken at each frame). */
  quietFrames: number;
}

interface Row {
  page: string;
  width: number;
  cls: number;
  moved: string;
  settled: boolean;
  /** The API answers the page waited for (delayed): none would mean it was drawn whole and measured nothing. */
  late: number;
}

/**
 * Every layout shift not caused by input, from the page's start (buffered), with what moved and by how much; and a
 * count of frames since the last one: each animation frame first takes the observer's pending entries (so that a shift
 * of the frame before is counted even if its callback has not run yet), then counts itself quiet if there were none.
 */
function observeShifts() {
  const record: ShiftRecord = { shifts: [], quietFrames: 0 };
  Object.assign(window, { layoutShifts: record });
  const describe = (node: Node | null | undefined) => {
    if (!node) return '?';
    const element = node as HTMLElement;
    const name = element.nodeName.toLowerCase();
    const className = typeof element.className === 'string' ? element.className.split(' ')[0] : '';
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `${name}${className ? `.${className}` : ''}${text ? ` "${text}"` : ''}`;
  };
  const take = (entries: PerformanceEntryList) => {
    let taken = 0;
    for (const entry of entries as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    })[]) {
      taken += 1;
      if (entry.hadRecentInput) continue;
      record.shifts.push({
        value: entry.value,
        at: Math.round(entry.startTime),
        sources: (entry.sources ?? []).map((source) => ({
          node: describe(source.node),
          dx: Math.round(source.currentRect.x - source.previousRect.x),
          dy: Math.round(source.currentRect.y - source.previousRect.y),
        })),
      });
    }
    return taken;
  };
  const observer = new PerformanceObserver((list) => {
    if (take(list.getEntries()) > 0) record.quietFrames = 0;
  });
  observer.observe({ type: 'layout-shift', buffered: true });
  const frame = () => {
    record.quietFrames = take(observer.takeRecords()) > 0 ? 0 : record.quietFrames + 1;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** The sources that moved most (each shift's value counted for each of its sources), with how far they went. */
function topSources(shifts: Shift[], count = 3): string {
  const bySource = new Map<string, { value: number; dx: number; dy: number }>();
  for (const shift of shifts) {
    for (const source of shift.sources) {
      const seen = bySource.get(source.node) ?? { value: 0, dx: 0, dy: 0 };
      seen.value += shift.value;
      if (Math.abs(source.dy) + Math.abs(source.dx) > Math.abs(seen.dy) + Math.abs(seen.dx)) {
        seen.dx = source.dx;
        seen.dy = source.dy;
      }
      bySource.set(source.node, seen);
    }
  }
  return [...bySource]
    .sort(([, a], [, b]) => b.value - a.value)
    .slice(0, count)
    .map(
      ([node, { value, dx, dy }]) =>
        `${node} (${dy ? `${dy > 0 ? '+' : ''}${dy} px down` : `${dx} px across`}, ${value.toFixed(3)})`,
    )
    .join('; ');
}

/** API answers delayed since the page being measured was opened. */
let lateAnswers = 0;
const late = async (route: Route) => {
  lateAnswers += 1;
  await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
  await route.continue();
};

/**
 * Opens `url` drawn by the browser (no time-zone cookie: the server sends the frame and the page reads its data
 * itself), waits for `ready`, the network to go quiet and the page to paint QUIET_FRAMES frames with no new shift;
 * answers the shifts. Throws when the page does not load.
 */
async function measure(
  context: BrowserContext,
  label: string,
  width: number,
  url: string,
  ready: (page: Awaited<ReturnType<BrowserContext['newPage']>>) => Promise<void>,
): Promise<Row> {
  await context.clearCookies({ name: 'tz' });
  lateAnswers = 0;
  const page = await context.newPage();
  try {
    const response = await page.goto(`${base}${url}`);
    if (!response?.ok()) throw new Error(`${label} at ${width} px: ${url} answered ${response?.status()}`);
    await ready(page);
    await page.waitForLoadState('networkidle');
    const settled = await page
      .waitForFunction(
        (frames) => (window as unknown as { layoutShifts: ShiftRecord }).layoutShifts.quietFrames >= frames,
        QUIET_FRAMES,
        { timeout: SETTLE_TIMEOUT_MS },
      )
      .then(
        () => true,
        () => false,
      );
    const { shifts } = await page.evaluate(() => (window as unknown as { layoutShifts: ShiftRecord }).layoutShifts);
    const cls = shifts.reduce((sum, shift) => sum + shift.value, 0);
    return { page: label, width, cls, moved: topSources(shifts) || '-', settled, late: lateAnswers };
  } finally {
    await page.close();
  }
}

const bench = await createBenchDatabase();
const server = await startServer(PORT, bench.url, { ADMIN_EMAILS: ADMIN_EMAIL });
const rows: Row[] = [];
try {
  const admin = await signedIn(base, bench.database.db, ADMIN_EMAIL);
  const customer = await signedIn(base, bench.database.db, 'layout-customer@example.com');
  await orderWithProxies(bench.database.db, customer.userId, 5);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    for (const width of WIDTHS) {
      const session = async (cookie: string) => {
        const context = await browser.newContext({ viewport: { width, height: 860 } });
        const [name = '', ...value] = cookie.split('=');
        await context.addCookies([{ name, value: value.join('='), url: base }]);
        await context.addInitScript(observeShifts);
        return context;
      };

      const adminContext = await session(admin.cookie);
      // The console's answers arrive a moment after its code, as on a phone: the loading state is drawn first.
      await adminContext.route('**/api/admin/**', late);
      // An open alert, drawn above the tabs when its answer arrives (a fresh shop has none).
      await adminContext.route('**/api/admin/alerts', async (route) => {
        lateAnswers += 1;
        await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
        await route.fulfill({
          json: {
            alerts: [
              {
                id: 'bench-1',
                kind: 'low_stock',
                summary: 'PK1 ISP: 3 IPs available, below the alert level of 10.',
                openedAt: new Date().toISOString(),
                tab: 'inventory',
              },
            ],
            total: 1,
            counts: { order_waiting: 0, low_stock: 1, job_stuck: 0, outbox_failing: 0 },
          },
        });
      });
      for (const tab of ADMIN_TABS) {
        const url = tab.value === 'inventory' ? paths.admin : `${paths.admin}?tab=${tab.value}`;
        rows.push(
          await measure(adminContext, `Admin: ${tab.label}`, width, url, (page) =>
            page.getByRole('tab', { name: tab.label, selected: true }).waitFor(),
          ),
        );
      }
      await adminContext.close();

      const customerContext = await session(customer.cookie);
      // The orders arrive a moment after the page is drawn, as on a phone.
      await customerContext.route('**/api/orders', late);
      rows.push(
        await measure(customerContext, 'Proxies', width, paths.proxies, (page) =>
          page.getByRole('button', { name: 'Download List' }).waitFor(),
        ),
      );
      await customerContext.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  await stopProcess(server);
  await bench.drop();
}

const table = [
  ['page', 'width', 'late answers', 'CLS', `within ${LIMIT}`, 'what moved (top sources: how far, share of CLS)'],
  ...rows.map((row) => [
    row.page,
    `${row.width} px`,
    String(row.late),
    row.cls.toFixed(4),
    `${row.cls <= LIMIT ? 'yes' : 'over'}${row.settled ? '' : ' (not settled)'}`,
    row.moved,
  ]),
];
const widths = table[0]?.map((_, column) => Math.max(...table.map((cells) => (cells[column] ?? '').length))) ?? [];
console.log(
  `Layout shifts as the data arrives (API answers ${DELAY_MS} ms late, drawn by the browser; settled = network idle, ` +
    `then ${QUIET_FRAMES} painted frames with no new shift):`,
);
for (const cells of table) {
  console.log(
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
