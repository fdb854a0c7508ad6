// The server's renderer of the public pages (built by `vite build --ssr` into dist-ssr/, loaded by the server at start).
// The browser hydrates what it renders (main.tsx), so the first paint needs no JavaScript. What it draws and reads
// for each page comes from the route table (app/pages.tsx), which the browser's router reads too.
import {
  isKnownPagePath,
  type PageReader,
  type PageReadPlan,
  type PageRenderer,
  type PricingResponse,
  paths,
  type RenderedPage,
  type ServerPage,
  type ServerRenderState,
  type SiteConfig,
} from '@storefront/contract';
import { dehydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import {
  adminConsole,
  dashboardLayout,
  firstReadsOf,
  publicPages,
  serverDrawnPages,
  serverDrawnPublicPages,
  signedInPageAt,
} from './app/pages.tsx';
import { AppProvider } from './app/provider.tsx';
import { AppRoutes } from './app/router.tsx';
import { seedQueryClient } from './app/server-state.ts';
import { applySiteConfig } from './config/site.ts';
import { DrawnForReader } from './lib/drawn-for-reader.ts';
import { type FirstRead, sessionRead } from './lib/first-read.ts';
import { createQueryClient } from './lib/query-client.ts';
import { ReaderTimeZone, ReadsTimeZone } from './lib/time-zone.ts';
import { DrawnAt } from './lib/use-now.ts';
import { formatPageTitle, PageTitleSink } from './lib/use-page-title.ts';

// Every page it draws is loaded before the server asks for any: rendering is synchronous and never waits for a chunk.
await Promise.all(serverDrawnPages.map((page) => page.preload()));

/**
 * The pages rendered on the server: the public ones (landing, privacy, terms), the 404 page and the signed-in pages'
 * frame. The sign-in screens and the sandbox pages are rendered by the browser.
 */
export const serverPage: PageRenderer['serverPage'] = (pathname: string): ServerPage | undefined => {
  if (pathname === paths.home) return { needsPricing: true, module: undefined, status: 200 };
  const publicPage = serverDrawnPublicPages[pathname];
  if (publicPage) return { needsPricing: false, module: publicPage.module, status: 200 };
  if (signedInPageAt(pathname)) return { needsPricing: false, module: dashboardLayout.module, status: 200 };
  if (!isKnownPagePath(pathname)) return { needsPricing: false, module: publicPages.notFound.module, status: 404 };
  return undefined;
};

/**
 * A signed-in page's first reads at `url` (path and query) for a reader in `timeZone`, the session check first;
 * undefined for other pages.
 */
function firstReads(
  url: string,
  timeZone: string | undefined,
): { reads: FirstRead[]; administrators: boolean } | undefined {
  const { pathname, searchParams } = new URL(url, 'http://page.invalid');
  // Only a page's own path: not one that URL parsing rewrites (a `#` sent by a script, dot segments), which is no page.
  if (pathname !== url.split('?')[0]) return undefined;
  const page = signedInPageAt(pathname);
  if (!page) return undefined;
  return {
    reads: [sessionRead, ...firstReadsOf(page, searchParams, timeZone)],
    administrators: page.administrators === true,
  };
}

export const pageReads: NonNullable<PageRenderer['pageReads']> = (
  url: string,
  timeZone?: string,
): PageReadPlan | undefined => {
  const first = firstReads(url, timeZone);
  if (!first) return undefined;
  const [, ...reads] = first.reads;
  return {
    session: sessionRead.address,
    reads: reads.map((entry) => entry.address),
    administrators: first.administrators,
  };
};

/** The API reads a server-rendered page starts with, preloaded with its HTML: a signed-in page's session check. */
export const preloadData = (pathname: string): string[] => (signedInPageAt(pathname) ? [sessionRead.address] : []);

/** Further split-off modules a server-rendered page preloads beside its own: a signed-in page's chunk. */
export const preloadModules = (pathname: string): string[] => {
  const page = signedInPageAt(pathname);
  return page ? [page.page.module] : [];
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
  reader: PageReader,
  readAt: number,
): { signedIn: boolean; administrator: boolean } {
  const { reads } = reader;
  const user = signedInUser(reads[sessionRead.address]);
  if (!user) return { signedIn: false, administrator: false };
  for (const entry of firstReads(url, reader.readsTimeZone)?.reads ?? []) {
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
  const seeded = reader ? seedReads(queryClient, url, reader, readAt) : undefined;
  const forReader = seeded?.signedIn === true;
  const sink: { title?: string } = {};
  const html = renderToString(
    <StrictMode>
      <PageTitleSink value={sink}>
        <DrawnForReader value={forReader}>
          <DrawnAt value={readAt}>
            <ReaderTimeZone value={reader?.timeZone}>
              <ReadsTimeZone value={reader?.readsTimeZone}>
                <AppProvider queryClient={queryClient}>
                  <StaticRouter location={url}>
                    <AppRoutes />
                  </StaticRouter>
                </AppProvider>
              </ReadsTimeZone>
            </ReaderTimeZone>
          </DrawnAt>
        </DrawnForReader>
      </PageTitleSink>
    </StrictMode>,
  );
  if (forReader) {
    state.queries = dehydrate(queryClient);
    state.timeZone = reader?.timeZone;
    state.readsTimeZone = reader?.readsTimeZone;
  }
  queryClient.clear();
  // The console drawn for an administrator: its chunk and styles are linked with the page.
  const drewConsole = seeded?.administrator === true && new URL(url, 'http://page.invalid').pathname === paths.admin;
  return { html, title: sink.title ?? formatPageTitle(), state, modules: drewConsole ? adminConsole.drawn() : [] };
};
