import type { EndpointName } from './api/index.ts';
import type { PricingResponse } from './schemas/catalogue.ts';

/** The operator's settings the browser needs; the server embeds them in index.html (no secrets here). */
export interface SiteConfig {
  brandName: string;
  chatCommunityUrl: string;
  supportUrl: string;
  /** Which social sign-ins are configured; the other buttons explain that they are not available. */
  socialSignIn: { google: boolean; discord: boolean };
  /** True when payments go to the sandbox provider (no real money): its test clock and billing pages exist. */
  sandboxPayments: boolean;
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  brandName: 'Proxy Storefront',
  chatCommunityUrl: 'https://discord.gg/',
  supportUrl: 'https://discord.gg/',
  socialSignIn: { google: false, discord: false },
  sandboxPayments: true,
};

/** The id of the JSON data block in index.html that carries the site config. */
export const SITE_CONFIG_ELEMENT_ID = 'site-config';

/** The id of the JSON data block in server-rendered pages that carries the data the page was rendered with. */
export const SERVER_STATE_ELEMENT_ID = 'server-state';

/** What the server rendered a page with, so the browser's first render (hydration) shows exactly the same. */
export interface ServerRenderState {
  /** `GET /api/pricing`'s answer, on pages that show prices. */
  pricing?: PricingResponse;
  /** When it was read (epoch milliseconds): the browser refreshes it once it is older than its usual freshness. */
  readAt: number;
  /**
   * A signed-in page rendered for its reader: the session and the page's first reads as the browser's query cache
   * holds them (TanStack Query's dehydrated state), so the browser starts with what the page was drawn from.
   */
  queries?: unknown;
}

/** A signed-in page's first reads (the session check first), as the reader's own session got them, by endpoint. */
export type PageReads = Partial<Record<EndpointName, unknown>>;

/** What the server knows of the reader of a signed-in page it draws whole. */
export interface PageReader {
  reads: PageReads;
  /** The origin the page was asked for (the links the page shows start with it). */
  origin: string;
  /** The reader's time zone, as their browser told it (the `tz` cookie); dates are written in it. */
  timeZone: string;
}

/** How the server treats one page path (see apps/web/src/entry-server.tsx). */
export interface ServerPage {
  /** Whether it shows prices (the server then reads them first). */
  needsPricing: boolean;
  /** The build manifest key of its split-off chunk, if it has one. */
  module: string | undefined;
  status: 200 | 404;
}

export interface RenderedPage {
  html: string;
  title: string;
  state: ServerRenderState;
}

/** The server renderer built from apps/web/src/entry-server.tsx, as the server loads it. */
export interface PageRenderer {
  /** The page the server renders at this path, or undefined for pages the browser renders alone. */
  serverPage(pathname: string): ServerPage | undefined;
  /**
   * Renders one page for `site`, with the pricing read at `readAt`; a customer page with its `reader` (their session,
   * first reads, origin and time zone) is drawn whole, without only its frame. Synchronous.
   */
  renderPage(
    url: string,
    site: SiteConfig,
    pricing?: PricingResponse,
    readAt?: number,
    reader?: PageReader,
  ): RenderedPage;
  /** The reads a signed-in page is drawn from, the session check first; none for other pages. */
  pageReads?(pathname: string): EndpointName[];
}
