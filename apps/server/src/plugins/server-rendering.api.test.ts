import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import {
  formatDate,
  KB_PER_GB,
  knownTimeZone,
  SERVER_STATE_ELEMENT_ID,
  SITE_CONFIG_ELEMENT_ID,
} from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyIps, residentialAccounts, residentialUsageDaily } from '../db/schema.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../test/test-app.ts';

// The public pages rendered by the server from the real build (`npm test` builds first; CI must have it).
const webDist = path.resolve(import.meta.dirname, '../../../web/dist');
const built =
  existsSync(path.join(webDist, 'index.html')) && existsSync(path.join(webDist, '../dist-ssr/entry-server.js'));

/** A GET of `target` exactly as written (no URL parsing on the way), its whole answer as text. */
function rawGet(address: string, target: string, cookie: string): Promise<string> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.lastIndexOf('</body>'));
/** A page drawn whole for its reader: for them alone, holding `texts`, with no skeleton. Its root element's HTML. */
function expectDrawnWhole(response: LightMyRequestResponse, texts: string[]): string {
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('private, no-store');
  expect(response.headers.vary).toBe('cookie');
  const root = rootOf(response.body);
  for (const text of texts) expect(root).toContain(text);
  expect(root).not.toContain('Loading...');
  return root;
}

const stateOf = (html: string) => {
  const match = html.match(
    new RegExp(`<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">(.*?)</script>`),
  );
  return match?.[1] ? JSON.parse(match[1]) : undefined;
};

describe.runIf(built || process.env.CI)('server-rendered pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      WEB_DIST_DIR: webDist,
      BRAND_NAME: 'Nova & <Sons>',
      ADMIN_EMAILS: 'grace-drawn@example.com',
    });
  });
  afterAll(() => t.close());

  it('renders the landing page with the live prices and stock, and the data it used for hydration', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    const root = rootOf(response.body);
    for (const text of ['Proxies built for', 'Why Choose Us?', 'Our Products', 'Simple, Transparent Pricing']) {
      expect(root).toContain(text);
    }
    const pricing = await t.app.inject({ method: 'GET', url: '/api/pricing' });
    const isp = pricing.json().plans.find((plan: { id: string }) => plan.id === 'isp_proxies');
    expect(root).toContain(`${isp.stock} IPs in stock`);
    expect(stateOf(response.body).pricing.plans).toEqual(pricing.json().plans);
    // The brand comes from configuration, escaped in the title and the page.
    expect(response.body).toContain('<title>Nova &amp; &lt;Sons&gt; | Elite ISP, PK1 and residential proxies</title>');
    expect(root).toContain('Nova &amp; &lt;Sons&gt;');
    expect(response.body).not.toContain('<Sons>');
    // The addresses the pages show for tools start with APP_URL's origin, on the server and in the browser alike.
    const siteBlock = new RegExp(`<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">(.*?)</script>`);
    expect(JSON.parse(siteBlock.exec(response.body)?.[1] ?? '{}').origin).toBe(new URL(t.config.appUrl).origin);
  });

  it('shows a stock change on the next visit', async () => {
    await t.database.db.update(proxyIps).set({ needRotated: true }).where(eq(proxyIps.productId, 'isp_proxies'));
    const root = rootOf((await t.app.inject({ method: 'GET', url: '/?ref=ad' })).body);
    expect(root).toContain('Restocking: new orders are delivered within 24 hours');
  });

  it('renders the privacy and terms pages with their own title and the styles of their split-off code', async () => {
    for (const [url, title] of [
      ['/privacy', 'Privacy Policy'],
      ['/terms', 'Terms of Service'],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(`<title>${title} | Nova &amp; &lt;Sons&gt;</title>`);
      expect(rootOf(response.body)).toMatch(/Last updated: (<!-- -->)?2 September 2025/);
      expect(rootOf(response.body)).toContain('Nova &amp; &lt;Sons&gt;');
      const stylesheets = response.body.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
      expect(stylesheets.length).toBeGreaterThan(1);
      expect(response.body).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/[\w-]+\.js">/);
    }
  });

  it('answers unknown paths 404 with the rendered 404 page, the path shown as text', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/no-such-page"><img src=x onerror=alert(1)>' });
    expect(response.statusCode).toBe(404);
    const root = rootOf(response.body);
    expect(root).toContain('Page not found');
    expect(root).not.toContain('<img src=x');
    expect(root).toMatch(/<code>\/no-such-page(&quot;|%22)(&gt;|%3E)(&lt;|%3C)img/);
    // Each unknown path gets its own path in the page (the rendering is shared, the path is not).
    const other = await t.app.inject({ method: 'GET', url: "/another/missing-page?x=1'" });
    expect(other.statusCode).toBe(404);
    expect(rootOf(other.body)).toContain('<code>/another/missing-page</code>');
    expect(other.body).not.toContain('__storefront-unknown-path__');
  });

  it("renders the signed-in pages' frame, the same for everyone, and preloads the layout's and the page's chunks", async () => {
    const manifest = JSON.parse(readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8'));
    const chunkOf = (module: string) => manifest[module].file as string;
    for (const [url, pageModule] of [
      ['/dashboard/proxies', 'src/features/proxies/components/proxies-page.tsx'],
      ['/dashboard/overview', 'src/features/dashboard/components/overview-page.tsx'],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      const root = rootOf(response.body);
      for (const text of ['Nova &amp; &lt;Sons&gt;', 'Overview', 'Order History', 'Loading...'])
        expect(root).toContain(text);
      expect(root).not.toContain('Sign Out');
      expect(root).not.toContain('Admin');
      for (const module of ['src/features/dashboard/components/dashboard-layout.tsx', pageModule]) {
        expect(response.body).toContain(`<link rel="modulepreload" crossorigin href="/${chunkOf(module)}">`);
      }
      // The session check the frame starts with is asked for with the HTML, not after the scripts.
      expect(response.body).toContain('<link rel="preload" as="fetch" crossorigin href="/api/user/auth">');
    }
  });

  it("titles each signed-in page's frame, links no admin console chunk, and draws the frame alike for everyone", async () => {
    const manifest = JSON.parse(readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8'));
    for (const [url, title] of [
      ['/dashboard/overview', 'Overview'],
      ['/dashboard/proxies', 'Proxies'],
      ['/dashboard/purchase', 'Purchase Proxies'],
      ['/dashboard/order-history', 'Order History'],
      ['/dashboard/settings', 'Settings'],
      ['/dashboard/admin', 'Admin'],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.body).toContain(`<title>${title} | Nova &amp; &lt;Sons&gt;</title>`);
    }
    // The admin route links its gate only: the console's chunk is for an administrator, asked for by the browser.
    const admin = await t.app.inject({ method: 'GET', url: '/dashboard/admin' });
    expect(admin.body).toContain(manifest['src/features/dashboard/components/admin-route.tsx'].file);
    expect(admin.body).not.toContain(manifest['src/features/admin/components/admin-page.tsx'].file);

    // The frame is the same for everyone: a cookie that is no session (or no time zone to write dates in) gets it too.
    const frame = (headers = {}) => t.app.inject({ method: 'GET', url: '/dashboard/proxies', headers });
    for (const headers of [{}, { cookie: 'storefront.session_token=anything; tz=UTC' }]) {
      const response = await frame(headers);
      expect(rootOf(response.body)).toContain('Loading...');
      expect(stateOf(response.body).queries).toBeUndefined();
      // The answer differs with the cookie, and says so to caches (with or without one).
      expect(response.headers.vary).toBe('cookie');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('draws the admin console whole for an administrator, each tab from its reads, and a customer only Access Denied', async () => {
    const manifest = JSON.parse(readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8'));
    const consoleChunk = manifest['src/features/admin/components/admin-page.tsx'].file as string;
    const grace = await signUpCustomer(t, 'grace-drawn@example.com');
    const carl = await signUpCustomer(t, 'carl-drawn@example.com');
    const page = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
    // A key's parts joined, an object part (the audit log's filters) as its JSON.
    const keyOf = (key: unknown[]) =>
      key.map((part) => (typeof part === 'object' ? JSON.stringify(part) : String(part))).join('/');
    const keysOf = (html: string) =>
      (stateOf(html).queries.queries as { queryKey: unknown[] }[]).map((query) => keyOf(query.queryKey)).sort();
    // Where the browser's hooks (features/admin/api) read each query: a drawn console must hold exactly those answers.
    const hookAddress: Record<string, string> = {
      'admin/alerts': '/api/admin/alerts',
      'admin/inventory/residential': '/api/admin/stocks/residential',
      'admin/inventory/residential-daily': '/api/admin/stocks/residential/daily',
      'admin/inventory/residential-top': '/api/admin/stocks/residential/top-customers',
      'admin/inventory/stock/isp/null': '/api/admin/stocks/isp',
      'admin/inventory/stock/pk1/null': '/api/admin/stocks/pk1',
      'features/admin': '/api/admin/features',
      'admin/audit/{}': '/api/admin/audit-log',
      'admin/coupons/list': '/api/admin/coupons',
      'admin/coupons/redemptions': '/api/admin/coupons/redemptions',
      'admin/inventory/subnets/pk1/page/{}/null': '/api/admin/ips/pk1/subnets',
      'admin/inventory/subnets/pk1/replacements/null': '/api/admin/ips/pk1/replacements',
      'auth/me': '/api/user/auth',
    };
    const expectHooksAnswers = async (html: string, label: string) => {
      for (const query of stateOf(html).queries.queries as { queryKey: unknown[]; state: { data: unknown } }[]) {
        const address = hookAddress[keyOf(query.queryKey)] ?? `no address for ${keyOf(query.queryKey)}`;
        const answer = await page(address, grace.cookie);
        expect(query.state.data, `${label} ${address}`).toEqual(answer.json());
      }
    };
    const zone = 'Pacific/Kiritimati';
    // A change, so the audit log has an entry to draw (its time in the reader's zone).
    const saved = await callApi(t, 'PUT', '/api/admin/stocks/residential', {
      cookie: grace.cookie,
      payload: { bandwidthLimit: 500 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The change has the shop check its alerts at once (no stock in this shop: 'low stock' opens, and is logged); the
    // pages below are drawn once that is done, so what they hold and what the API answers after them are the same.
    await expect
      .poll(async () => (await page('/api/admin/alerts', grace.cookie)).json().total, { timeout: 10_000 })
      .toBeGreaterThan(0);

    const inventory = await page('/dashboard/admin', `${grace.cookie}; tz=${encodeURIComponent(zone)}`);
    expectDrawnWhole(inventory, [
      'Admin Dashboard',
      'Inventory &amp; Features',
      'Residential',
      'grace-drawn@example.com',
      // The daily usage chart, drawn with the page (its table for screen readers, then the bars).
      'Carried by the gateway: 0.000 GB in the last 30 days',
      'Carried by the gateway, per day over the last 30 days',
    ]);
    expect(inventory.body).toContain('<title>Inventory &amp; Features – Admin | Nova &amp; &lt;Sons&gt;</title>');
    expect(keysOf(inventory.body)).toEqual([
      'admin/alerts',
      'admin/inventory/residential',
      'admin/inventory/residential-daily',
      'admin/inventory/residential-top',
      'admin/inventory/stock/isp/null',
      'admin/inventory/stock/pk1/null',
      'auth/me',
      'features/admin',
    ]);
    await expectHooksAnswers(inventory.body, 'inventory');
    // The console's chunk and styles come with the page, for an administrator.
    expect(inventory.body).toContain(`<link rel="modulepreload" crossorigin href="/${consoleChunk}">`);

    const audit = await page('/dashboard/admin?tab=audit_log', `${grace.cookie}; tz=${encodeURIComponent(zone)}`);
    expect(keysOf(audit.body)).toEqual(['admin/alerts', 'admin/audit/{}', 'auth/me']);
    await expectHooksAnswers(audit.body, 'audit_log');
    const log = (await page('/api/admin/audit-log', grace.cookie)).json();
    expect(rootOf(audit.body)).toContain(formatDate(log.entries[0].at, 'date-time', zone));
    const tabBodies = new Map<string, string>();
    for (const [tab, keys] of [
      ['active_coupons', ['admin/alerts', 'admin/coupons/list', 'auth/me']],
      ['coupon_redemptions', ['admin/alerts', 'admin/coupons/redemptions', 'auth/me']],
      [
        'pk1_inventory_list',
        [
          'admin/alerts',
          'admin/inventory/subnets/pk1/page/{}/null',
          'admin/inventory/subnets/pk1/replacements/null',
          'auth/me',
        ],
      ],
      ['custom_ordering', ['admin/alerts', 'auth/me']],
    ] as const) {
      const response = await page(`/dashboard/admin?tab=${tab}`, `${grace.cookie}; tz=UTC`);
      tabBodies.set(tab, response.body);
      expect(keysOf(response.body), tab).toEqual(keys);
      await expectHooksAnswers(response.body, tab);
      expect(rootOf(response.body), tab).not.toContain('Loading...');
    }
    // A tab split off from the console (its own chunk, apps/web/src/lib/split-part.tsx) comes with its chunk and styles
    // when the server drew it, and only then.
    const subnetsPart = manifest['src/features/admin/components/subnet-inventory.tsx'] as {
      file: string;
      css?: string[];
    };
    expect(subnetsPart.css?.length).toBeGreaterThan(0);
    const subnets = tabBodies.get('pk1_inventory_list') ?? '';
    expect(subnets).toContain(`<link rel="modulepreload" crossorigin href="/${subnetsPart.file}">`);
    for (const css of subnetsPart.css ?? []) expect(subnets).toContain(`href="/${css}"`);
    expect(inventory.body).not.toContain(subnetsPart.file);
    expect(tabBodies.get('active_coupons')).not.toContain(subnetsPart.file);

    // A customer gets 'Access Denied' drawn from their session alone: no admin read, no console chunk.
    const denied = await page('/dashboard/admin?tab=audit_log', `${carl.cookie}; tz=UTC`);
    expect(rootOf(denied.body)).toContain('Access Denied');
    expect(keysOf(denied.body)).toEqual(['auth/me']);
    expect(denied.body).not.toContain(consoleChunk);
    expect(denied.body).not.toContain('grace-drawn@example.com');
    // Without a session, the frame with the gate's chunk only.
    const anonymous = await t.app.inject({ method: 'GET', url: '/dashboard/admin' });
    expect(rootOf(anonymous.body)).toContain('Loading...');
    expect(anonymous.body).not.toContain(consoleChunk);

    // A path that is no page is neither drawn nor counted: the counter's `page` label takes the app's page paths only.
    // A raw `#` (only a script sends it; URL parsing would drop it) is refused as a path in no plain form, an encoded
    // one is the 404 page. Sent as written over a socket (inject, like a browser, drops the `#`).
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      for (const [target, status] of [
        ['/dashboard/admin#x', 'HTTP/1.1 400'],
        ['/dashboard/overview#x?tab=audit_log', 'HTTP/1.1 400'],
        ['/dashboard/overview%23x', 'HTTP/1.1 404'],
      ] as const) {
        const odd = await rawGet(address, target, `${grace.cookie}; tz=UTC`);
        expect(odd.slice(0, 12), target).toBe(status);
        expect(odd, target).not.toContain('grace-drawn@example.com');
        expect(odd, target).not.toContain('"queries"');
      }
    } finally {
      await t.app.server.close();
    }

    const counted = (await t.app.metrics.customerPages.get()).values;
    expect(
      counted.every(
        (value) => String(value.labels.page).startsWith('/dashboard/') && !/[#%]/.test(String(value.labels.page)),
      ),
    ).toBe(true);
    const count = (drawn: string) =>
      counted.find((value) => value.labels.page === '/dashboard/admin' && value.labels.drawn === drawn)?.value;
    expect(count('whole')).toBe(7);
    expect(count('no_session')).toBeGreaterThanOrEqual(1);
  });

  it('draws each customer page whole for its reader, from their own reads, in their time zone, for them alone', async () => {
    const manifest = JSON.parse(readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8'));
    const ada = await signUpCustomer(t, 'ada-drawn@example.com');
    const bob = await signUpCustomer(t, 'bob-drawn@example.com');
    const page = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
    const zone = 'Pacific/Kiritimati';

    const overview = await page('/dashboard/overview', `${ada.cookie}; tz=${encodeURIComponent(zone)}`);
    const root = expectDrawnWhole(overview, [
      'Signed in as',
      'ada-drawn@example.com',
      'Account Information',
      'Active Elite ISP Proxies',
    ]);
    expect(root).not.toContain('bob-drawn@example.com');
    const me = (await t.app.inject({ method: 'GET', url: '/api/user/auth', headers: { cookie: ada.cookie } })).json();
    expect(root).toContain(formatDate(me.user.createdAt, 'date', zone));
    // The browser's query cache starts with the same answers, so it neither asks again nor draws anything else.
    const queries = stateOf(overview.body).queries.queries as { queryKey: string[]; state: { data: unknown } }[];
    expect(queries.map((query) => query.queryKey.join('/')).sort()).toEqual(['auth/me', 'orders/list', 'orders/usage']);
    expect(queries.find((query) => query.queryKey[0] === 'auth')?.state.data).toEqual(me);
    // And the zone its dates were written in, which the browser hydrates with before writing its own.
    expect(stateOf(overview.body).timeZone).toBe(zone);
    expect(overview.body).not.toContain('rel="preload" as="fetch"');
    for (const module of [
      'src/features/dashboard/components/dashboard-layout.tsx',
      'src/features/dashboard/components/overview-page.tsx',
    ]) {
      expect(overview.body).toContain(`<link rel="modulepreload" crossorigin href="/${manifest[module].file}">`);
    }

    // Another reader gets their own page, never one kept from the first; a visitor without a session the frame.
    const bobs = rootOf((await page('/dashboard/overview', `${bob.cookie}; tz=pacific%2Fkiritimati`)).body);
    expect(bobs).toContain('bob-drawn@example.com');
    expect(bobs).not.toContain('ada-drawn@example.com');
    const anonymous = await t.app.inject({ method: 'GET', url: '/dashboard/overview' });
    expect(rootOf(anonymous.body)).toContain('Loading...');
    expect(anonymous.body).not.toContain('drawn@example.com');
    // The page draws what its address says: the tab a paid checkout comes back to.
    expect(
      rootOf((await page('/dashboard/proxies?tab=residential_proxies&paid=1', `${ada.cookie}; tz=UTC`)).body),
    ).toContain('No residential proxies');
    // A customer with residential traffic: the Residential tab's daily chart is drawn with the page, from the same
    // read, and from their traffic alone (another customer's the same day is not theirs).
    const cy = await signUpCustomer(t, 'cy-drawn@example.com');
    const today = new Date().toISOString().slice(0, 10);
    await t.database.db.insert(residentialAccounts).values([
      { userId: cy.id, username: 'cydrawn', password: 'x', totalKb: 10 * KB_PER_GB, usedKb: 2 * KB_PER_GB },
      { userId: bob.id, username: 'bobdrawn', password: 'x', totalKb: 10 * KB_PER_GB, usedKb: 5 * KB_PER_GB },
    ]);
    await t.database.db.insert(residentialUsageDaily).values([
      { userId: cy.id, day: today, usedKb: 2 * KB_PER_GB },
      { userId: bob.id, day: today, usedKb: 5 * KB_PER_GB },
    ]);
    const residential = await page('/dashboard/proxies?tab=residential', `${cy.cookie}; tz=UTC`);
    const drawnChart = expectDrawnWhole(residential, [
      'Data used: 2.000 GB in the last 30 days',
      'Data used, per day over the last 30 days',
      `<td>${formatDate(`${today}T00:00:00Z`, 'month-day', 'UTC')}</td><td>2</td>`,
      // The Automatic top-up card with its form, a part of its own that the server loads with the tab.
      'When data left falls under (GB)',
      'No top-ups yet.',
    ]);
    expect(drawnChart).not.toContain('7.000 GB');
    const keysOfPage = (html: string) =>
      (stateOf(html).queries.queries as { queryKey: string[] }[]).map((query) => query.queryKey.join('/')).sort();
    expect(keysOfPage(residential.body)).toEqual([
      'auth/me',
      'orders/daily-usage',
      'orders/list',
      'orders/processing',
      'orders/usage',
      'proxy-users/list',
      'top-up/settings',
    ]);
    // The other tabs show no chart (nor the Automatic top-up and Proxy Users cards), so their page makes no such
    // reads.
    const isp = await page('/dashboard/proxies', `${cy.cookie}; tz=UTC`);
    expect(keysOfPage(isp.body)).toEqual(['auth/me', 'orders/list', 'orders/processing', 'orders/usage']);

    // The Usage page reads its view in the reader's zone, under the key its hook asks with as it hydrates; a custom
    // range it refuses reads nothing.
    const usage = await page('/dashboard/usage?range=30d&by=day', `${cy.cookie}; tz=${encodeURIComponent(zone)}`);
    expectDrawnWhole(usage, ['No usage in this range']);
    const usageQueries = stateOf(usage.body).queries.queries as { queryKey: unknown[] }[];
    expect(usageQueries.map((query) => query.queryKey).find((key) => key[1] === 'usage-report')).toEqual([
      'orders',
      'usage-report',
      { range: '30d', by: 'day', timeZone: zone },
    ]);
    // A zone this server's engine spells another way ('Asia/Calcutta') is read and keyed as the browser wrote it, the
    // name its hook asks with: else the browser would ask again as it hydrates.
    const kolkata = await page('/dashboard/usage', `${cy.cookie}; tz=${encodeURIComponent('Asia/Kolkata')}`);
    expectDrawnWhole(kolkata, ['No usage in this range']);
    const kolkataKeys = (stateOf(kolkata.body).queries.queries as { queryKey: unknown[] }[]).map((q) => q.queryKey);
    expect(kolkataKeys.find((key) => key[1] === 'usage-report')).toEqual([
      'orders',
      'usage-report',
      { range: '7d', timeZone: 'Asia/Kolkata' },
    ]);
    // Its dates are written in this server's one name of the zone; the browser is told both.
    expect(stateOf(kolkata.body).timeZone).toBe(knownTimeZone('Asia/Kolkata'));
    expect(stateOf(kolkata.body).readsTimeZone).toBe('Asia/Kolkata');
    const refused = await page('/dashboard/usage?range=custom&from=2026-02-01&to=2026-01-01', `${cy.cookie}; tz=UTC`);
    expect(keysOfPage(refused.body)).toEqual(['auth/me']);

    for (const [url, text] of [
      ['/dashboard/proxies', 'No ISP proxies'],
      ['/dashboard/purchase', 'IPs in stock'],
      ['/dashboard/order-history', 'Order History'],
      ['/dashboard/settings', 'API Keys'],
    ] as const) {
      const response = await page(url, `${ada.cookie}; tz=UTC`);
      expect(rootOf(response.body), url).toContain(text);
      expect(rootOf(response.body), url).not.toContain('Loading...');
      expect(stateOf(response.body).queries, url).toBeDefined();
    }

    // Without a time zone to write dates in, or with a made-up one, the frame as for anyone.
    for (const cookie of [ada.cookie, `${ada.cookie}; tz=Mars%2FOlympus`]) {
      const response = await page('/dashboard/overview', cookie);
      expect(rootOf(response.body)).toContain('Loading...');
      expect(response.body).not.toContain('ada-drawn@example.com');
    }

    // The operator sees how the pages went out.
    const counted = (await t.app.metrics.customerPages.get()).values;
    const count = (page: string, drawn: string) =>
      counted.find((value) => value.labels.page === page && value.labels.drawn === drawn)?.value;
    expect(count('/dashboard/overview', 'whole')).toBe(2);
    expect(count('/dashboard/overview', 'no_time_zone')).toBe(2);
    expect(count('/dashboard/settings', 'whole')).toBe(1);
    expect(count('/dashboard/proxies', 'signed_out')).toBeGreaterThanOrEqual(1);
  });

  it('leaves the pages that depend on the session to the browser', async () => {
    for (const url of ['/login', '/dashboard', '/sandbox/checkout/abc']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
      expect(stateOf(response.body)).toBeUndefined();
    }
  });

  it('keeps the build manifest private', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.vite/manifest.json' });
    expect(response.statusCode).toBe(404);
  });
});
