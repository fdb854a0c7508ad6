// The server's renderer of the public pages (built by `vite build --ssr` into dist-ssr/, loaded by the server at start).
// The browser hydrates what it renders (main.tsx), so the first paint needs no JavaScript.
import {
  isKnownPagePath,
  type PageRenderer,
  type PricingResponse,
  paths,
  type RenderedPage,
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
 * The pages rendered on the server: the public ones (landing, privacy, terms) and the 404 page. Pages behind
 * sign-in, the sign-in screens and the sandbox pages depend on the browser's session and are rendered there.
 */
export const serverPage: PageRenderer['serverPage'] = (pathname: string): ServerPage | undefined => {
  if (pathname === paths.home) return { needsPricing: true, module: undefined, status: 200 };
  if (pathname in splitPageModules) return { needsPricing: false, module: splitPageModules[pathname], status: 200 };
  if (!isKnownPagePath(pathname)) return { needsPricing: false, module: notFoundModule, status: 404 };
  return undefined;
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
            <AppRoutes publicPages={publicPages} />
          </StaticRouter>
        </AppProvider>
      </PageTitleSink>
    </StrictMode>,
  );
  queryClient.clear();
  return { html, title: sink.title ?? formatPageTitle(), state };
};
