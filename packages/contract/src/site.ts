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
  /** True when no mail server is set (no SMTP_URL): e-mails, and their links, are written to the server's output. */
  mailsInLog: boolean;
  /** True when the shop has a test address (GATEWAY_TEST_URL): the Residential tab offers 'Test connection'. */
  connectionTest: boolean;
  /** True when the gateway records targets' domains in usage statistics (USAGE_DOMAINS): Settings offers the switch. */
  usageDomains: boolean;
  /**
   * The shop's public origin (APP_URL's scheme, host and port): the addresses the pages show for tools (list links,
   * the generator's, the API's) start with it, on the server and in the browser alike. Empty: the browser's own.
   */
  origin: string;
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  brandName: 'Proxy Storefront',
  chatCommunityUrl: 'https://discord.gg/',
  supportUrl: 'https://discord.gg/',
  socialSignIn: { google: false, discord: false },
  sandboxPayments: true,
  mailsInLog: false,
  connectionTest: false,
  usageDomains: true,
  origin: '',
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
  /**
   * The time zone such a page's dates were written in (the reader's `tz` cookie): the browser hydrates with it, then
   * writes them in its own, which differs when the computer's zone changed since the cookie was set.
   */
  timeZone?: string;
  /**
   * The same zone as the reader's browser spells it, which the page's first reads were asked in: the browser's hooks
   * ask with that name as they hydrate, so that they find them.
   */
  readsTimeZone?: string;
}

/** A signed-in page's first reads (the session check first), as the reader's own session got them, by API address. */
export type PageReads = Record<string, unknown>;

/**
 * What the server reads to draw a signed-in page for its reader: API addresses as the browser's own fetch asks for
 * them (`/api/orders`, `/api/admin/audit-log?page=1`).
 */
export interface PageReadPlan {
  /** The session check, read first: a cookie that is no session costs no more. */
  session: string;
  /** The page's own reads, made side by side once the session is known. */
  reads: string[];
  /** A page for administrators: anyone else's is drawn from the session alone (it says 'Access Denied'). */
  administrators: boolean;
}

/** What the server knows of the reader of a signed-in page it draws whole. */
export interface PageReader {
  reads: PageReads;
  /** The reader's time zone, as their browser told it (the `tz` cookie), by this server's name; dates are written in it. */
  timeZone: string;
  /**
   * The same zone spelt as the browser spells it (the cookie's own name): the page's first reads were asked in it,
   * as its hooks ask as it hydrates (the server's engine may name it otherwise: 'Asia/Calcutta', 'Asia/Kolkata').
   */
  readsTimeZone: string;
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
  /** The build manifest keys of split-off modules the drawn page holds beyond its route's (the admin console). */
  modules?: string[];
}

/** The server renderer built from apps/web/src/entry-server.tsx, as the server loads it. */
export interface PageRenderer {
  /** The page the server renders at this path, or undefined for pages the browser renders alone. */
  serverPage(pathname: string): ServerPage | undefined;
  /**
   * Renders one page for `site`, with the pricing read at `readAt`; a signed-in page with its `reader` (their session,
   * first reads, origin and time zone) is drawn whole, without only its frame. Synchronous.
   */
  renderPage(
    url: string,
    site: SiteConfig,
    pricing?: PricingResponse,
    readAt?: number,
    reader?: PageReader,
  ): RenderedPage;
  /**
   * What a signed-in page at `url` (path and query) is drawn from, for a reader in `timeZone` (a page of days and hours
   * reads them in it); undefined for the pages drawn alike for all.
   */
  pageReads?(url: string, timeZone?: string): PageReadPlan | undefined;
}
