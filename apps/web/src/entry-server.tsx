// The server's renderer of the public pages (built by `vite build --ssr` into dist-ssr/, loaded by the server at start).
// The browser hydrates what it renders (main.tsx), so the first paint needs no JavaScript.
import {
  type AdminTab,
  addressOf,
  adminTabOf,
  type EndpointName,
  type IpPool,
  isKnownPagePath,
  type PageReader,
  type PageReadPlan,
  type PageReads,
  type PageRenderer,
  type PricingResponse,
  paths,
  type RenderedPage,
  routes,
  type ServerPage,
  type ServerRenderState,
  type SiteConfig,
} from '@storefront/contract';
import { dehydrate, type QueryKey } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppProvider } from './app/provider.tsx';
import { AppRoutes, type DashboardPages, type PublicPages } from './app/router.tsx';
import { seedQueryClient } from './app/server-state.ts';
import { applySiteConfig } from './config/site.ts';
import { accountKeys } from './features/account/api/account-keys.ts';
import { SettingsPage } from './features/account/components/settings-page.tsx';
import { alertsKeys, auditKeys, couponKeys, inventoryKeys } from './features/admin/api/admin-keys.ts';
import { AdminPage as AdminConsole } from './features/admin/components/admin-page.tsx';
import { AdminRoute } from './features/dashboard/components/admin-route.tsx';
import { DashboardLayout } from './features/dashboard/components/dashboard-layout.tsx';
import { OverviewPage } from './features/dashboard/components/overview-page.tsx';
import { NotFoundPage } from './features/errors/not-found-page.tsx';
import { PrivacyPage } from './features/legal/components/privacy-page.tsx';
import { TermsPage } from './features/legal/components/terms-page.tsx';
import { OrderHistoryPage } from './features/order-history/components/order-history-page.tsx';
import { ProxiesPage } from './features/proxies/components/proxies-page.tsx';
import { tabOf } from './features/proxies/proxies-model.ts';
import { PurchasePage } from './features/purchase/components/purchase-page.tsx';
import { DrawnForReader } from './lib/drawn-for-reader.ts';
import { featuresKeys } from './lib/queries/features.ts';
import { ordersKeys } from './lib/queries/orders.ts';
import { parsePricing, pricingKeys } from './lib/queries/pricing.ts';
import { createQueryClient } from './lib/query-client.ts';
import { ReaderTimeZone } from './lib/time-zone.ts';
import { authQueryKey } from './lib/use-auth.ts';
import { DrawnAt } from './lib/use-now.ts';
import { formatPageTitle, PageTitleSink } from './lib/use-page-title.ts';

const publicPages: PublicPages = { PrivacyPage, TermsPage, NotFoundPage };
const dashboardPages: DashboardPages = {
  OverviewPage,
  ProxiesPage,
  PurchasePage,
  OrderHistoryPage,
  SettingsPage,
  // The gate with the console itself: drawn here for an administrator, its chunk linked for nobody else.
  AdminPage: () => <AdminRoute console={AdminConsole} />,
};
const adminConsoleModule = 'src/features/admin/components/admin-page.tsx';

/**
 * The source module of each page rendered here but split off in the browser: the server links its chunk's styles
 * and scripts from the build manifest, so the page is styled at first paint and hydrates without waiting.
 */
const splitPageModules: Record<string, string> = {
  [paths.privacy]: 'src/features/legal/components/privacy-page.tsx',
  [paths.terms]: 'src/features/legal/components/terms-page.tsx',
};
const notFoundModule = 'src/features/errors/not-found-page.tsx';

/**
 * The signed-in pages: the server renders their frame (header, navigation, a skeleton where the page goes) without
 * knowing the session, and links the layout's chunk and the page's own, so both load beside the entry.
 */
const dashboardLayoutModule = 'src/features/dashboard/components/dashboard-layout.tsx';
const dashboardPageModules: Record<string, string> = {
  [paths.overview]: 'src/features/dashboard/components/overview-page.tsx',
  [paths.proxies]: 'src/features/proxies/components/proxies-page.tsx',
  [paths.purchase]: 'src/features/purchase/components/purchase-page.tsx',
  [paths.orderHistory]: 'src/features/order-history/components/order-history-page.tsx',
  [paths.settings]: 'src/features/account/components/settings-page.tsx',
  // The admin route's gate only: the console itself is linked for nobody (a customer never downloads it).
  [paths.admin]: 'src/features/dashboard/components/admin-route.tsx',
};

/**
 * The pages rendered on the server: the public ones (landing, privacy, terms), the 404 page and the signed-in pages'
 * frame. The sign-in screens and the sandbox pages are rendered by the browser.
 */
export const serverPage: PageRenderer['serverPage'] = (pathname: string): ServerPage | undefined => {
  if (pathname === paths.home) return { needsPricing: true, module: undefined, status: 200 };
  if (pathname in splitPageModules) return { needsPricing: false, module: splitPageModules[pathname], status: 200 };
  if (pathname in dashboardPageModules) return { needsPricing: false, module: dashboardLayoutModule, status: 200 };
  if (!isKnownPagePath(pathname)) return { needsPricing: false, module: notFoundModule, status: 404 };
  return undefined;
};

/** One of a signed-in page's first reads: its API address, as the app's own fetch asks for it, and its query key. */
interface FirstRead {
  address: string;
  key: QueryKey;
  /** What the page's query keeps of the answer, when not the answer itself. */
  keep?: (answer: unknown) => unknown;
}

const read = (
  name: EndpointName,
  key: QueryKey,
  input: { params?: Record<string, string>; query?: object; keep?: FirstRead['keep'] } = {},
): FirstRead => ({ address: `/api${addressOf(routes[name].path, input.params, input.query)}`, key, keep: input.keep });

const sessionRead = read('checkSession', authQueryKey);

/**
 * Each customer page's first reads beyond the session check, each where the page's own query keeps it (the same key,
 * address and parameters as the page's hook). For a request with a session the server makes them itself (as that
 * session) and draws the whole page from their answers; the browser's query cache starts with them.
 */
const customerReads: Record<string, FirstRead[]> = {
  [paths.overview]: [read('listOrders', ordersKeys.list()), read('listOrderUsage', ordersKeys.usage())],
  [paths.proxies]: [
    read('listOrders', ordersKeys.list()),
    read('listOrderUsage', ordersKeys.usage()),
    read('listProcessingOrders', ordersKeys.processing()),
  ],
  [paths.purchase]: [
    read('getPricing', pricingKeys.all, { keep: parsePricing }),
    read('listFeatures', featuresKeys.public()),
  ],
  [paths.orderHistory]: [read('listOrderHistory', ordersKeys.history())],
  [paths.settings]: [
    read('listApiKeys', accountKeys.apiKeys()),
    read('getAuthorizedIps', accountKeys.authorizedIps()),
    read('getPreferences', accountKeys.preferences()),
  ],
};

const dailyUsageRead = read('getDailyUsage', ordersKeys.dailyUsage());

const stock = (pool: IpPool) => read('getIpStock', inventoryKeys.stock(pool), { params: { pool } });

/** The admin console's first reads by tab (features/admin/api), beside the open alerts every tab shows first. */
const adminTabReads: Record<AdminTab, FirstRead[]> = {
  inventory: [
    read('listFeatureFlags', featuresKeys.admin()),
    read('getResidentialStock', inventoryKeys.residential()),
    read('getResidentialDailyUsage', inventoryKeys.residentialDaily()),
    stock('pk1'),
    stock('isp'),
  ],
  // Nothing until a customer is looked up.
  custom_ordering: [],
  active_coupons: [read('listCoupons', couponKeys.list())],
  coupon_redemptions: [read('listCouponRedemptions', couponKeys.redemptions())],
  pk1_inventory_list: [
    read('listSubnets', inventoryKeys.subnets('pk1'), { params: { pool: 'pk1' }, query: { ips: 'false' } }),
  ],
  audit_log: [read('listAuditLog', auditKeys.page({}), { query: {} })],
};

/** A signed-in page's first reads at `url` (path and query), the session check first; undefined for other pages. */
function firstReads(url: string): { reads: FirstRead[]; administrators: boolean } | undefined {
  const { pathname, searchParams } = new URL(url, 'http://page.invalid');
  // Only a page's own path: not one that URL parsing rewrites (a `#` sent by a script, dot segments), which is no page.
  if (pathname !== url.split('?')[0]) return undefined;
  const reads = customerReads[pathname];
  // The Residential tab's daily chart, drawn with the page rather than arriving under it; no other tab shows it.
  const chart = pathname === paths.proxies && tabOf(searchParams.get('tab')) === 'residential_proxies';
  if (reads) return { reads: [sessionRead, ...reads, ...(chart ? [dailyUsageRead] : [])], administrators: false };
  if (pathname !== paths.admin) return undefined;
  const tabReads = adminTabReads[adminTabOf(searchParams.get('tab'))];
  return { reads: [sessionRead, read('listOpenAlerts', alertsKeys.all), ...tabReads], administrators: true };
}

export const pageReads: NonNullable<PageRenderer['pageReads']> = (url: string): PageReadPlan | undefined => {
  const first = firstReads(url);
  if (!first) return undefined;
  const [, ...reads] = first.reads;
  return {
    session: sessionRead.address,
    reads: reads.map((entry) => entry.address),
    administrators: first.administrators,
  };
};

/** The API reads a server-rendered page starts with, preloaded with its HTML: a signed-in page's session check. */
export const preloadData = (pathname: string): string[] =>
  pathname in dashboardPageModules ? [sessionRead.address] : [];

/** Further split-off modules a server-rendered page preloads beside its own: a signed-in page's chunk. */
export const preloadModules = (pathname: string): string[] => {
  const module = dashboardPageModules[pathname];
  return module ? [module] : [];
};

/** The signed-in user of the session check's answer, if any. */
const signedInUser = (answer: unknown) => {
  const session = answer as { authenticated?: unknown; user?: { role?: unknown } } | null | undefined;
  return session?.authenticated === true ? (session.user ?? {}) : undefined;
};

/**
 * Puts a signed-in page's read answers where its queries read them. Whether they make a signed-in page, and whether
 * its reader is an administrator.
 */
function seedReads(
  queryClient: ReturnType<typeof createQueryClient>,
  url: string,
  reads: PageReads,
  readAt: number,
): { signedIn: boolean; administrator: boolean } {
  const user = signedInUser(reads[sessionRead.address]);
  if (!user) return { signedIn: false, administrator: false };
  for (const entry of firstReads(url)?.reads ?? []) {
    if (!(entry.address in reads)) continue;
    const answer = reads[entry.address];
    queryClient.setQueryData(entry.key, entry.keep ? entry.keep(answer) : answer, { updatedAt: readAt });
  }
  return { signedIn: true, administrator: user.role === 'admin' };
}

/**
 * Renders one page (`url`: path and query) for `site`, with the pricing read at `readAt`. A signed-in page with its
 * `reader` is drawn whole and its state carries their reads (the admin console for an administrator, 'Access Denied'
 * for anyone else); without, the signed-in pages are their frame. Synchronous.
 */
export const renderPage: PageRenderer['renderPage'] = (
  url: string,
  site: SiteConfig,
  pricing?: PricingResponse,
  readAt = Date.now(),
  reader?: PageReader,
): RenderedPage => {
  applySiteConfig(site);
  const state: ServerRenderState = pricing ? { pricing, readAt } : { readAt };
  const queryClient = createQueryClient();
  seedQueryClient(queryClient, state);
  const seeded = reader ? seedReads(queryClient, url, reader.reads, readAt) : undefined;
  const forReader = seeded?.signedIn === true;
  const sink: { title?: string } = {};
  const html = renderToString(
    <StrictMode>
      <PageTitleSink value={sink}>
        <DrawnForReader value={forReader}>
          <DrawnAt value={readAt}>
            <ReaderTimeZone value={reader?.timeZone}>
              <AppProvider queryClient={queryClient}>
                <StaticRouter location={url}>
                  <AppRoutes
                    publicPages={publicPages}
                    dashboardLayout={DashboardLayout}
                    dashboardPages={dashboardPages}
                  />
                </StaticRouter>
              </AppProvider>
            </ReaderTimeZone>
          </DrawnAt>
        </DrawnForReader>
      </PageTitleSink>
    </StrictMode>,
  );
  if (forReader) {
    state.queries = dehydrate(queryClient);
    state.timeZone = reader?.timeZone;
  }
  queryClient.clear();
  // The console drawn for an administrator: its chunk and styles are linked with the page.
  const drewConsole = seeded?.administrator === true && new URL(url, 'http://page.invalid').pathname === paths.admin;
  return { html, title: sink.title ?? formatPageTitle(), state, modules: drewConsole ? [adminConsoleModule] : [] };
};
