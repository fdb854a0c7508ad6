// The signed-in pages: a customer never downloads the admin console, each signed-in page's server-drawn HTML carries its
// own <title>, and a page drawn whole for its reader (each customer page, each admin tab for an administrator) hydrates
// as drawn and reads nothing again. Layout shifts as data arrives are measured by bench/layout-shift.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { formatDate, paths } from '@storefront/contract';
import { ADMIN_TABS } from '../apps/web/src/features/admin/admin-tabs.ts';
import { buyThroughSandbox, pageLive, signIn, signUp, uniqueEmail } from './support/helpers.ts';
import { E2E } from './support/ports.ts';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');

/** The built JavaScript files that hold any module of the admin console (src/features/admin/), from the build. */
function adminChunkFiles(): string[] {
  const chunks: Record<string, string[]> = JSON.parse(
    readFileSync(path.join(dist, '.vite/chunk-modules.json'), 'utf8'),
  );
  return Object.entries(chunks)
    .filter(([, modules]) => modules.some((module) => module.startsWith('src/features/admin/')))
    .map(([file]) => file);
}

/** Every URL the page asks for from now on (documents, preloads, scripts, fetches). */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

let adminSignedUp = false;
async function asAdmin(page: Page) {
  if (!adminSignedUp) {
    await signUp(page, E2E.speedAdminEmail);
    adminSignedUp = true;
  } else {
    await signIn(page, E2E.speedAdminEmail);
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
  }
}

test.describe.configure({ mode: 'serial' });

test('a customer who opens /dashboard/admin gets Access Denied without downloading the admin console', async ({
  page,
}) => {
  const adminFiles = adminChunkFiles();
  expect(adminFiles.length).toBeGreaterThan(0);
  const requests = recordRequests(page);
  await signUp(page, uniqueEmail('no-console'));

  // Typed into the address bar (a server-drawn page), then reached inside the app (the browser renders it alone).
  await page.goto(paths.admin);
  const alert = page.getByRole('alert').filter({ hasText: 'Access Denied' });
  await expect(alert).toContainText(
    "You don't have permission to access this page. Administrator privileges are required.",
  );
  await expect(page).toHaveTitle(/^Admin \| /);
  await page.goto(paths.overview);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, paths.admin);
  await expect(alert).toBeVisible();
  await page.waitForLoadState('networkidle');

  const html = await (await page.request.get(paths.admin)).text();
  const downloaded = requests.filter((url) => adminFiles.some((file) => url.endsWith(`/${file}`)));
  expect(downloaded).toEqual([]);
  expect(adminFiles.filter((file) => html.includes(file))).toEqual([]);
  // The watch sees scripts at all: the dashboard's own chunks were fetched.
  expect(requests.some((url) => /\/assets\/dashboard-layout-[^/]+\.js$/.test(url))).toBe(true);
});

test('an administrator gets the console (its chunk loads once the role is known)', async ({ page }) => {
  const adminFiles = adminChunkFiles();
  const requests = recordRequests(page);
  await asAdmin(page);
  await page.goto(paths.admin);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByText('Access Denied')).toHaveCount(0);
  expect(requests.some((url) => adminFiles.some((file) => url.endsWith(`/${file}`)))).toBe(true);
});

test('each signed-in page has its own <title> in the HTML the server draws, the one the page then keeps', async ({
  page,
}) => {
  const pages = [
    [paths.overview, 'Overview'],
    [paths.proxies, 'Proxies'],
    [paths.usage, 'Usage'],
    [paths.purchase, 'Purchase Proxies'],
    [paths.orderHistory, 'Order History'],
    [paths.settings, 'Settings'],
    [paths.admin, 'Admin'],
  ] as const;
  const served = new Map<string, string>();
  for (const [pathname, title] of pages) {
    const html = await (await page.request.get(pathname)).text();
    const served_title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
    expect(served_title, pathname).toMatch(new RegExp(`^${title} \\| `));
    served.set(pathname, served_title);
  }

  await signUp(page, uniqueEmail('titles'));
  for (const [pathname] of pages) {
    await page.goto(pathname);
    await expect(page.locator('#root [role="status"]').filter({ hasText: 'Loading...' })).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    // The same title once the page itself has rendered (a customer's admin page: 'Access Denied', titled 'Admin').
    await expect(page, pathname).toHaveTitle(served.get(pathname) ?? '');
  }
});

/** The customer pages, each drawn whole for its reader. */
const CUSTOMER_PAGES = [paths.overview, paths.proxies, paths.usage, paths.purchase, paths.orderHistory, paths.settings];

/** The fetch preloads an HTML page links, in its order. */
const fetchPreloads = (html: string) =>
  [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

/** Watches what the app itself asks fetch for, by path (kept in the page as `storefrontAsked`). */
async function recordAppFetches(page: Page) {
  await page.addInitScript(() => {
    const fetchOriginal = window.fetch.bind(window);
    const asked: string[] = [];
    (window as unknown as { storefrontAsked: string[] }).storefrontAsked = asked;
    window.fetch = (input, init) => {
      asked.push(new URL(input instanceof Request ? input.url : String(input), location.href).pathname);
      return fetchOriginal(input, init);
    };
  });
}

/** Console errors and warnings and uncaught errors of the page from now on (a hydration mismatch is one). */
function recordProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/**
 * Opens a page drawn for its reader and checks it: the page and the reader's e-mail in its HTML, no read left to
 * preload; once hydrated (the page no longer `inert`), the app has asked the API for nothing: the server's reads were
 * all the page needed, at the addresses its own queries read.
 */
async function expectDrawnForReader(page: Page, url: string, email: string) {
  const html = await (await page.request.get(url)).text();
  expect(html, url).not.toContain('data-page-skeleton');
  expect(html, url).toContain(email);
  expect(fetchPreloads(html), url).toEqual([]);

  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await pageLive(page);
  const asked = await page.evaluate(() => (window as unknown as { storefrontAsked: string[] }).storefrontAsked);
  expect(
    asked.filter((path) => path.startsWith('/api/')),
    url,
  ).toEqual([]);
}

test.describe('signed-in pages drawn by the server for their reader', () => {
  // Far from the server's UTC: a date written in the wrong zone would differ from the browser's and break hydration.
  test.use({ timezoneId: 'Pacific/Kiritimati' });

  test('each customer page arrives whole in its HTML, hydrates without a mismatch, and the browser reads nothing of it again', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    // Without a session: the frame, which preloads only the session check (the visitor is then sent to sign in).
    const anonymous = await browser.newContext({ baseURL: E2E.appUrl });
    for (const pathname of CUSTOMER_PAGES) {
      expect(fetchPreloads(await (await anonymous.request.get(pathname)).text()), pathname).toEqual(['/api/user/auth']);
    }
    await anonymous.close();

    const problems = recordProblems(page);
    await recordAppFetches(page);
    const email = uniqueEmail('drawn-pages');
    await signUp(page, email);
    // An order, so that the pages hold dates and times (Proxies, Order History).
    await buyThroughSandbox(page, /Elite ISP Proxies/, /^5 IPs/);
    for (const pathname of CUSTOMER_PAGES) await expectDrawnForReader(page, pathname, email);
    // The browser wrote the order's times in its own zone (UTC+14), and hydrated without a mismatch: the server wrote
    // them in the same zone.
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Pacific/Kiritimati');
    expect(problems).toEqual([]);
  });

  test('a zone the server names otherwise (Asia/Kolkata, Asia/Calcutta): the Usage page finds its reads as it hydrates', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: E2E.appUrl, timezoneId: 'Asia/Kolkata' });
    const page = await context.newPage();
    const problems = recordProblems(page);
    await recordAppFetches(page);
    const email = uniqueEmail('kolkata');
    await signUp(page, email);
    await expectDrawnForReader(page, paths.usage, email);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("a page drawn with a time-zone cookie older than the computer's zone hydrates as drawn, then writes the browser's", async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    await signUp(page, uniqueEmail('moved-zone'));
    await buyThroughSandbox(page, /Elite ISP Proxies/, /^5 IPs/);
    const purchase = (await (await page.request.get('/api/orders/history')).json())[0];
    expect(purchase).toBeTruthy();
    // The cookie says the zone the computer was in when it was set (UTC-12); the browser is now in UTC+14.
    await context.addCookies([{ name: 'tz', value: 'Etc/GMT%2B12', url: E2E.appUrl }]);
    const problems = recordProblems(page);
    // The page the browser then hydrates was drawn in the cookie's zone (not sent as its frame).
    const response = await page.goto(paths.orderHistory);
    expect(await response?.text()).toContain(formatDate(purchase.purchased_at, 'date-time', 'Etc/GMT+12'));
    await pageLive(page);
    // Cards on a phone, a table on a wide screen (chosen by CSS): the one shown.
    await expect(
      page.getByText(formatDate(purchase.purchased_at, 'date-time', 'Pacific/Kiritimati')).filter({ visible: true }),
    ).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('each admin tab arrives whole for an administrator, hydrates without a mismatch, and reads nothing again', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const problems = recordProblems(page);
    await recordAppFetches(page);
    await asAdmin(page);
    for (const tab of ADMIN_TABS) {
      const url = tab.value === 'inventory' ? paths.admin : `${paths.admin}?tab=${tab.value}`;
      await expectDrawnForReader(page, url, E2E.speedAdminEmail);
      await expect(page.getByRole('tab', { name: tab.label })).toHaveAttribute('aria-selected', 'true');
    }
    expect(problems).toEqual([]);
  });
});

test('every page loads a few script files and breaks no rule of the Content-Security-Policy', async ({ page }) => {
  // Violations are reported by the browser even when the code catches them (zod probing for `new Function` did).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const visit = async (pathname: string, ready: () => Promise<void>, maxScripts = 7) => {
    scripts.length = 0;
    await page.goto(pathname);
    await ready();
    await page.waitForLoadState('networkidle');
    const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    expect(violations, pathname).toEqual([]);
    // The entry, the shared chunk, the layout and the page, with the forms', the overlays' or a field's file for a
    // page that draws them (docs/decisions/2026-11-27-fewer-chunks.md, 2026-11-29-light-pages.md).
    console.log(`${pathname}: ${scripts.length} scripts`);
    expect(scripts.length, `${pathname}: ${scripts.join(', ')}`).toBeLessThanOrEqual(maxScripts);
  };
  // A signed-in page's own code: the dashboard's frame, a page's chunk, the admin route's.
  const signedInCode = () =>
    scripts.filter((script) =>
      /\/assets\/(dashboard-layout|overview-page|proxies-page|purchase-page|order-history-page|settings-page|admin-route|admin-page)-/.test(
        script,
      ),
    );
  await visit(paths.home, () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  // The landing loads its one file only: the toast host waits for a toast, the menus for their first opening.
  expect(scripts).toHaveLength(1);
  // The landing's lazy pieces (the Products menu, the phone menu) load none of the signed-in pages' own code (they share
  // the positioning, scroll lock and overlay code of the shared and overlays files with them).
  await page.getByRole('button', { name: 'Products' }).first().hover();
  await expect(page.getByRole('menu')).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(signedInCode()).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const pathname of [paths.privacy, paths.terms, '/no-such-page']) {
    await visit(pathname, () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
    expect(signedInCode(), pathname).toEqual([]);
  }
  // better-auth's client is a file of its own: the sign-in screen fetches it after it shows, no signed-in page does.
  const authClient = () => scripts.filter((script) => /\/assets\/auth-client-/.test(script));
  await visit(paths.login, () => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible());
  expect(authClient()).toHaveLength(1);
  await signUp(page, uniqueEmail('few-scripts'));
  for (const pathname of CUSTOMER_PAGES) {
    await visit(pathname, async () => {
      await expect(page.locator('[data-page-skeleton]')).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });
    expect(authClient(), pathname).toEqual([]);
  }
  // The admin console, the one part that builds zod schemas (its coupon form checks with the contract's), and that form
  // refusing an empty coupon.
  await page.context().clearCookies();
  await asAdmin(page);
  // Signing in lands on Overview: its scripts finish loading before the admin page's are counted.
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The console's query keys are a file of their own for now (apps/web/scripts/route-bundles.ts, Admin's maxFiles).
  await visit(
    `${paths.admin}?tab=active_coupons`,
    () => expect(page.getByRole('button', { name: 'Add Coupon' })).toBeVisible(),
    8,
  );
  await page.getByRole('button', { name: 'Add Coupon' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Coupon' });
  await dialog.getByRole('button', { name: 'Create Coupon' }).click();
  await expect(dialog.getByText('Coupon code is required')).toBeVisible();
  const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  expect(violations).toEqual([]);
});
