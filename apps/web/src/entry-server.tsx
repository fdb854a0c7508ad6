// The server's renderer of the public pages (built by `vite build --ssr` into dist-ssr/, loaded by the server at start).
// The browser hydrates what it renders (main.tsx), so the first paint needs no JavaScript.
import {
  type EndpointName,
  isKnownPagePath,
  type PageRenderer,
  type PricingResponse,
  paths,
  type RenderedPage,
  routes,
  type ServerPage,
  type ServerRenderState,
  type SiteConfig,
} from '@storefront/contract';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppProvider } from './app/provider.tsx';
import { AppRoutes, type PublicPages } from './app/router.tsx';
import { seedQueryClient } from './app/server-state.ts';
import { applySiteConfig } from './config/site.ts';
import { DashboardLayout } from './features/dashboard/components/dashboard-layout.tsx';
import { NotFoundPage } from './features/errors/not-found-page.tsx';
import { PrivacyPage } from './features/legal/components/privacy-page.tsx';
import { TermsPage } from './features/legal/components/terms-page.tsx';
import { createQueryClient } from './lib/query-client.ts';
import { formatPageTitle, PageTitleSink } from './lib/use-page-title.ts';

const publicPages: PublicPages = { PrivacyPage, TermsPage, NotFoundPage };

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
 * Each signed-in page's first reads beyond the session check, preloaded with its HTML so that they travel beside the
 * page's code instead of after it: only for a request that carries a session cookie (the server decides; the frame
 * itself stays the same for everyone), since a visitor without one is sent to the sign-in page and would not use them.
 */
const pageReads: Record<string, EndpointName[]> = {
  [paths.overview]: ['listOrders', 'listOrderUsage'],
  [paths.proxies]: ['listOrders', 'listOrderUsage', 'listProcessingOrders'],
  [paths.purchase]: ['getPricing', 'listFeatures'],
  [paths.orderHistory]: ['listOrderHistory'],
  [paths.settings]: ['listApiKeys', 'getAuthorizedIps', 'getPreferences'],
};

/** The API reads a server-rendered page starts with, preloaded with its HTML: a signed-in page's session check. */
export const preloadData = (pathname: string): string[] =>
  pathname in dashboardPageModules ? [apiAddress('checkSession')] : [];

/** The reads a signed-in page starts with that need the session, preloaded only for a visitor with a session cookie. */
export const preloadSessionData = (pathname: string): string[] => (pageReads[pathname] ?? []).map(apiAddress);

/** Further split-off modules a server-rendered page preloads beside its own: a signed-in page's chunk. */
export const preloadModules = (pathname: string): string[] => {
  const module = dashboardPageModules[pathname];
  return module ? [module] : [];
};

/** Renders one page (`url`: path and query) for `site`, with the pricing read at `readAt`. Synchronous. */
export const renderPage: PageRenderer['renderPage'] = (
  url: string,
  site: SiteConfig,
  pricing?: PricingResponse,
  readAt = Date.now(),
): RenderedPage => {
  applySiteConfig(site);
  const state: ServerRenderState = pricing ? { pricing, readAt } : { readAt };
  const queryClient = createQueryClient();
  seedQueryClient(queryClient, state);
  const sink: { title?: string } = {};
  const html = renderToString(
    <StrictMode>
      <PageTitleSink value={sink}>
        <AppProvider queryClient={queryClient}>
          <StaticRouter location={url}>
            <AppRoutes publicPages={publicPages} dashboardLayout={DashboardLayout} />
          </StaticRouter>
        </AppProvider>
      </PageTitleSink>
    </StrictMode>,
  );
  queryClient.clear();
  return { html, title: sink.title ?? formatPageTitle(), state };
};
