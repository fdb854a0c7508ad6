import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_STATE_ELEMENT_ID } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyIps } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

// The public pages rendered by the server from the real build (`npm test` builds first; CI must have it).
const webDist = path.resolve(import.meta.dirname, '../../../web/dist');
const built =
  existsSync(path.join(webDist, 'index.html')) && existsSync(path.join(webDist, '../dist-ssr/entry-server.js'));

const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.lastIndexOf('</body>'));
const stateOf = (html: string) => {
  const match = html.match(
    new RegExp(`<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">(.*?)</script>`),
  );
  return match?.[1] ? JSON.parse(match[1]) : undefined;
};

describe.runIf(built || process.env.CI)('server-rendered pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST_DIR: webDist, BRAND_NAME: 'Nova & <Sons>' });
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

  it("titles each signed-in page's frame, links no admin console chunk, and preloads each page's reads for a session", async () => {
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

    const ordersPreload = '<link rel="preload" as="fetch" crossorigin href="/api/orders">';
    const session = { cookie: 'storefront.session_token=anything' };
    const proxies = (headers = {}) => t.app.inject({ method: 'GET', url: '/dashboard/proxies', headers });
    expect((await proxies()).body).not.toContain(ordersPreload);
    expect((await proxies(session)).body).toContain(ordersPreload);
    expect((await proxies()).body).not.toContain(ordersPreload);
    // The answer differs with the cookie, and says so to caches (with or without one).
    expect((await proxies()).headers.vary).toBe('cookie');
    expect((await proxies(session)).headers.vary).toBe('cookie');
    // Each page its own reads (Purchase its prices, for a session only); the admin gate has none, and does not vary.
    const pricingPreload = '<link rel="preload" as="fetch" crossorigin href="/api/pricing">';
    const purchase = (headers = {}) => t.app.inject({ method: 'GET', url: '/dashboard/purchase', headers });
    expect((await purchase(session)).body).toContain(pricingPreload);
    expect((await purchase(session)).body).not.toContain(ordersPreload);
    expect((await purchase()).body).not.toContain(pricingPreload);
    const gate = await t.app.inject({ method: 'GET', url: '/dashboard/admin', headers: session });
    expect(gate.body).not.toContain(ordersPreload);
    expect(gate.headers.vary).toBeUndefined();
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
