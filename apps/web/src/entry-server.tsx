// The server's renderer of the public pages (built by `vite build --ssr` into dist-ssr/, loaded by the server at start).
// The browser hydrates what it renders (main.tsx), so the first paint needs no JavaScript.
import {
  type EndpointName,
  isKnownPagePath,
  type PageReader,
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
import { DashboardLayout } from './features/dashboard/components/dashboard-layout.tsx';
import { OverviewPage } from './features/dashboard/components/overview-page.tsx';
import { NotFoundPage } from './features/errors/not-found-page.tsx';
import { PrivacyPage } from './features/legal/components/privacy-page.tsx';
import { TermsPage } from './features/legal/components/terms-page.tsx';
import { OrderHistoryPage } from './features/order-history/components/order-history-page.tsx';
import { ProxiesPage } from './features/proxies/components/proxies-page.tsx';
import { PurchasePage } from './features/purchase/components/purchase-page.tsx';
import { DrawnForReader } from './lib/drawn-for-reader.ts';
import { PageOrigin } from './lib/page-origin.ts';
import { featuresKeys } from './lib/queries/features.ts';
import { ordersKeys } from './lib/queries/orders.ts';
import { parsePricing, pricingKeys } from './lib/queries/pricing.ts';
import { createQueryClient } from './lib/query-client.ts';
import { ReaderTimeZone } from './lib/time-zone.ts';
import { authQueryKey } from './lib/use-auth.ts';
import { formatPageTitle, PageTitleSink } from './lib/use-page-title.ts';

const publicPages: PublicPages = { PrivacyPage, TermsPage, NotFoundPage };
const dashboardPages: DashboardPages = { OverviewPage, ProxiesPage, PurchasePage, OrderHistoryPage, SettingsPage };

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

/** The address of one of the contract's reads (without parameters), as the app's own fetch asks for it (lib/api-client.ts). */
const apiAddress = (name: EndpointName) => `/api${routes[name].path}`;

/**
 * Each customer page's first reads beyond the session check. For a request with a session the server makes them
 * itself (as that session) and draws the whole page from their answers; the browser's query cache starts with them.
 */
const firstReads: Record<string, EndpointName[]> = {
  [paths.overview]: ['listOrders', 'listOrderUsage'],
  [paths.proxies]: ['listOrders', 'listOrderUsage', 'listProcessingOrders'],
  [paths.purchase]: ['getPricing', 'listFeatures'],
  [paths.orderHistory]: ['listOrderHistory'],
  [paths.settings]: ['listApiKeys', 'getAuthorizedIps', 'getPreferences'],
};

/** Where each of those answers goes in the query cache: the key the page's own query reads. */
const queryKeys: Partial<Record<EndpointName, QueryKey>> = {
  checkSession: authQueryKey,
  listOrders: ordersKeys.list(),
  listOrderUsage: ordersKeys.usage(),
  listProcessingOrders: ordersKeys.processing(),
  listFeatures: featuresKeys.public(),
  listOrderHistory: ordersKeys.history(),
  listApiKeys: accountKeys.apiKeys(),
  getAuthorizedIps: accountKeys.authorizedIps(),
  getPreferences: accountKeys.preferences(),
};

/** The reads a customer page is drawn from, the session check first (none for the admin console and other pages). */
export const pageReads = (pathname: string): EndpointName[] => {
  const reads = firstReads[pathname];
  return reads ? ['checkSession', ...reads] : [];
};

/** The API reads a server-rendered page starts with, preloaded with its HTML: a signed-in page's session check. */
export const preloadData = (pathname: string): string[] =>
  pathname in dashboardPageModules ? [apiAddress('checkSession')] : [];

/** Further split-off modules a server-rendered page preloads beside its own: a signed-in page's chunk. */
export const preloadModules = (pathname: string): string[] => {
  const module = dashboardPageModules[pathname];
  return module ? [module] : [];
};

/** Whether the session check's answer is a signed-in user. */
const isSignedIn = (answer: unknown) =>
  typeof answer === 'object' && answer !== null && (answer as { authenticated?: unknown }).authenticated === true;

/** Puts a signed-in page's read answers where its queries read them; true when they include a signed-in session. */
function seedReads(queryClient: ReturnType<typeof createQueryClient>, reads: PageReads, readAt: number): boolean {
  if (!isSignedIn(reads.checkSession)) return false;
  for (const [name, answer] of Object.entries(reads) as [EndpointName, unknown][]) {
    const key = queryKeys[name];
    if (key) queryClient.setQueryData(key, answer, { updatedAt: readAt });
  }
  const pricing = parsePricing(reads.getPricing);
  if (pricing) queryClient.setQueryData(pricingKeys.all, pricing, { updatedAt: readAt });
  return true;
}

/**
 * Renders one page (`url`: path and query) for `site`, with the pricing read at `readAt`. A customer page with its
 * `reader` is drawn whole and its state carries their reads; without, the signed-in pages are their frame. Synchronous.
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
  const forReader = reader !== undefined && seedReads(queryClient, reader.reads, readAt);
  const sink: { title?: string } = {};
  const html = renderToString(
    <StrictMode>
      <PageTitleSink value={sink}>
        <DrawnForReader value={forReader}>
          <PageOrigin value={reader?.origin}>
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
          </PageOrigin>
        </DrawnForReader>
      </PageTitleSink>
    </StrictMode>,
  );
  if (forReader) state.queries = dehydrate(queryClient);
  queryClient.clear();
  return { html, title: sink.title ?? formatPageTitle(), state };
};
