import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import {
  type AuthCheckResponse,
  isKnownPagePath,
  knownTimeZone,
  messages,
  type PageReader,
  type PageReadPlan,
  type PageRenderer,
  type PricingResponse,
  SERVER_STATE_ELEMENT_ID,
  type ServerRenderState,
  SITE_CONFIG_ELEMENT_ID,
  type SiteConfig,
  TIME_ZONE_COOKIE,
} from '@storefront/contract';
import { parseCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest, LightMyRequestResponse as Response } from 'fastify';
import type { Counter } from 'prom-client';
import { carriesSessionCookie } from '../lib/own-site.ts';

const ONE_YEAR_SECONDS = 31_536_000;

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** A JSON data block: never executed, so the CSP needs no exception, and `<` escaped so it cannot close the tag. */
const jsonBlock = (id: string, value: unknown) =>
  `<script type="application/json" id="${id}">${JSON.stringify(value).replaceAll('<', '\\u003c')}</script>`;

/** Embeds the site config and the brand name; the app's marker stays for `renderPageHtml`. */
export function renderIndexHtml(template: string, site: SiteConfig): string {
  return template
    .replace('<!--site-config-->', jsonBlock(SITE_CONFIG_ELEMENT_ID, site))
    .replaceAll('%BRAND_NAME%', escapeHtml(site.brandName));
}

/** What goes into one page: the server-rendered app (empty for pages the browser renders alone) and its head. */
export interface PageParts {
  appHtml: string;
  title?: string;
  state?: ServerRenderState;
  /** Stylesheets and module scripts of the page's split-off chunk. */
  styles?: string[];
  scripts?: string[];
  /** API addresses the page reads first, fetched beside its scripts (`fetch()` of the same address takes the answer). */
  data?: string[];
}

export function renderPageHtml(indexHtml: string, parts: PageParts): string {
  const head = [
    ...(parts.styles ?? []).map((href) => `<link rel="stylesheet" crossorigin href="/${href}">`),
    ...(parts.scripts ?? []).map((href) => `<link rel="modulepreload" crossorigin href="/${href}">`),
    fetchPreloads(parts.data ?? []),
    ...(parts.state ? [jsonBlock(SERVER_STATE_ELEMENT_ID, parts.state)] : []),
  ].join('');
  // After the entry's own tags (Vite puts them last in <head>), so the page's styles come after the landing's.
  let html = indexHtml.replace('</head>', () => `${head}</head>`).replace('<!--app-html-->', () => parts.appHtml);
  if (parts.title !== undefined) {
    html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(parts.title ?? '')}</title>`);
  }
  return html;
}

/** The fetch preloads of `hrefs`, as the app's own fetch (same-origin credentials) takes them: one request each. */
const fetchPreloads = (hrefs: string[]) =>
  hrefs.map((href) => `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(href)}">`).join('');

/** CSP source expressions ('sha256-...') of the executable inline scripts of a page (JSON data blocks excluded). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?<attributes>[^>]*)>(?<body>[\s\S]*?)<\/script>/g)) {
    const attributes = match.groups?.attributes ?? '';
    const body = match.groups?.body ?? '';
    if (/\bsrc=/.test(attributes) || /type=["']application\/json["']/.test(attributes) || body === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

/**
 * The server renderer as built from apps/web/src/entry-server.tsx: the contract's, and the split-off modules a page
 * preloads beside its own (a signed-in page: its page's chunk beside the layout's). Optional, for an older build.
 */
type WebRenderer = PageRenderer & {
  preloadModules?: (pathname: string) => string[];
  preloadData?: (pathname: string) => string[];
};

/** Vite's build manifest: source module → chunk, its styles and the chunks it imports. */
type BuildManifest = Record<string, { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }>;

export interface WebAppBuild {
  /** index.html with the site config embedded, or undefined when the app is not built. */
  indexHtml: string | undefined;
  scriptHashes: string[];
  /** Renders the public pages; undefined when the server renderer is not built (the browser then renders alone). */
  renderer: WebRenderer | undefined;
  /** The styles and scripts a split-off module needs beyond what index.html loads. */
  chunkAssets(module: string): { styles: string[]; scripts: string[] };
}

/** Collects what `module` loads up front, leaving out the entry chunk and what it imports itself. */
export function chunkAssetsFrom(manifest: BuildManifest, module: string): { styles: string[]; scripts: string[] } {
  const loadedByEntry = new Set<string>();
  const markEntry = (key: string) => {
    if (loadedByEntry.has(key)) return;
    loadedByEntry.add(key);
    for (const imported of manifest[key]?.imports ?? []) markEntry(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) markEntry(key);

  const styles = new Set<string>();
  const scripts = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key) || loadedByEntry.has(key)) return;
    seen.add(key);
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(module);
  return { styles: [...styles], scripts: [...scripts] };
}

/** Reads the built app: index.html, the build manifest and the server renderer beside it (`<dist>/../dist-ssr`). */
export async function loadWebAppBuild(distDir: string, site: SiteConfig): Promise<WebAppBuild> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    return {
      indexHtml: undefined,
      scriptHashes: [],
      renderer: undefined,
      chunkAssets: () => ({ styles: [], scripts: [] }),
    };
  }
  const indexHtml = renderIndexHtml(readFileSync(indexFile, 'utf8'), site);
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  const manifest: BuildManifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : {};
  const rendererFile = path.join(path.dirname(distDir), 'dist-ssr', 'entry-server.js');
  const renderer = existsSync(rendererFile)
    ? ((await import(pathToFileURL(rendererFile).href)) as WebRenderer)
    : undefined;
  return {
    indexHtml,
    scriptHashes: inlineScriptHashes(indexHtml),
    renderer,
    chunkAssets: (module) => chunkAssetsFrom(manifest, module),
  };
}

/** Why a signed-in page was sent as its frame (the browser then reads and draws the page itself). */
type FrameReason = 'no_session' | 'no_time_zone' | 'signed_out' | 'read_failed' | 'slow' | 'render_failed';

/**
 * How long a signed-in page's HTML waits for its reads before it goes out as its frame: the reads are the page's own,
 * a few milliseconds each; a database that takes longer should not hold the page back.
 */
const READS_BUDGET_MS = 1500;

/** The path the 404 page is rendered for; each answer carries the path asked for in its place. */
const NOT_FOUND_STAND_IN = '/__storefront-unknown-path__';

/** Text escaped as React escapes it, so the browser's first render reads the same text (no hydration mismatch). */
const escapeText = (text: string) => escapeHtml(text).replaceAll("'", '&#x27;');

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

export interface WebAppOptions {
  distDir: string;
  build: WebAppBuild;
  site: SiteConfig;
  /** The live pricing (the same short-lived cache as `GET /api/pricing`). */
  pricing: () => Promise<PricingResponse>;
  /** Counts the signed-in pages sent, by how they were drawn (lib/metrics.ts). */
  customerPages?: Counter<'page' | 'drawn'>;
}

/**
 * The zone the reader's browser told (the `tz` cookie), when this server knows it: `zone` by this server's name, which
 * dates are written in (one name however a visitor spells a zone, so the formatters kept per zone stay few), and `told`
 * as the browser spells it, which the page's first reads are asked in since the browser's hooks ask with that name
 * ('Asia/Kolkata' where this server's engine says 'Asia/Calcutta'): a read kept under the other would be asked again.
 */
function readerTimeZone(request: FastifyRequest): { zone: string; told: string } | undefined {
  const told = parseCookie(request.headers.cookie ?? '')[TIME_ZONE_COOKIE];
  const zone = knownTimeZone(told);
  return zone === undefined || told === undefined ? undefined : { zone, told };
}

/**
 * Serves the built app: hashed assets cached for a year, pages never cached. The public pages (landing with live
 * prices, privacy, terms, 404), the signed-in pages drawn whole for a reader with a session, and otherwise the
 * signed-in pages' frame (header, navigation, a skeleton; the same for every visitor) are rendered here and hydrated by
 * the browser; the others are the app's shell, which the browser renders. Unknown page paths answer 404 with the 404
 * page; API paths answer JSON.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions) {
  const { indexHtml, renderer } = options.build;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
      preCompressed: true,
      wildcard: true,
      cacheControl: false,
      // The build manifest (.vite/) is for the server only.
      dotfiles: 'ignore',
      setHeaders: (reply, filePath) => {
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'cache-control',
          isHashedAsset ? `public, max-age=${ONE_YEAR_SECONDS}, immutable` : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }

  // The last rendering of each public page, reused while what it was rendered with (the prices) is the same. The 404
  // page is rendered once for a stand-in path and the asked path written into it, so unknown paths cost no rendering.
  const rendered = new Map<string, { key: string; html: string }>();

  /** The styles and scripts of these split-off modules, each once, in order. */
  const assetsOf = (modules: string[]) => {
    const styles = new Set<string>();
    const scripts = new Set<string>();
    for (const module of modules) {
      const assets = options.build.chunkAssets(module);
      for (const style of assets.styles) styles.add(style);
      for (const script of assets.scripts) scripts.add(script);
    }
    return { styles: [...styles], scripts: [...scripts] };
  };

  /** A page's modules: its own chunk and those the renderer preloads beside it. */
  const modulesOf = (pathname: string, module: string | undefined) => [
    ...(module ? [module] : []),
    ...(renderer?.preloadModules?.(pathname) ?? []),
  ];

  /**
   * A signed-in page's first reads, made here as the visitor's own session (the same routes, checks and answers as the
   * browser's fetch): the session check first, then the page's own reads side by side (an administrator's page: for an
   * administrator only; anyone else's is drawn from the session alone). The frame instead (the browser then reads for
   * itself) for a visitor without a session cookie, whose browser has not told its time zone, who is not signed in,
   * or when a read fails or the reads take longer than READS_BUDGET_MS. `setCookie`: the session check's renewed
   * cookie, passed on.
   */
  const readForVisitor = async (
    request: FastifyRequest,
    plan: PageReadPlan,
  ): Promise<{ reader: PageReader; setCookie: string[] } | { frame: FrameReason }> => {
    if (!carriesSessionCookie(request)) return { frame: 'no_session' };
    const timeZone = readerTimeZone(request);
    if (!timeZone) return { frame: 'no_time_zone' };
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const name of ['cookie', 'host', 'user-agent', 'accept-language'] as const) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const read = (url: string) => app.inject({ method: 'GET', url, headers, remoteAddress: request.ip });
    const reads = async (): Promise<{ frame: FrameReason } | { session: Response; answers: Response[] }> => {
      const session = await read(plan.session);
      const answer = session.statusCode === 200 ? session.json<AuthCheckResponse>() : undefined;
      // A cookie that is no session costs one read, not the page's.
      if (!answer?.authenticated) return { frame: 'signed_out' };
      const mayRead = !plan.administrators || answer.user?.role === 'admin';
      return { session, answers: mayRead ? await Promise.all(plan.reads.map(read)) : [] };
    };
    let timer: NodeJS.Timeout | undefined;
    const outOfTime = new Promise<{ frame: FrameReason }>((resolve) => {
      timer = setTimeout(() => resolve({ frame: 'slow' }), READS_BUDGET_MS);
    });
    const result = await Promise.race([reads(), outOfTime]).finally(() => clearTimeout(timer));
    if ('frame' in result) return result;
    const { session, answers } = result;
    if (answers.some((answer) => answer.statusCode !== 200)) return { frame: 'read_failed' };
    const reader: PageReader = {
      reads: { [plan.session]: session.json() },
      timeZone: timeZone.zone,
      readsTimeZone: timeZone.told,
    };
    answers.forEach((answer, index) => {
      reader.reads[plan.reads[index] ?? ''] = answer.json();
    });
    const renewed = session.headers['set-cookie'];
    return { reader, setCookie: renewed === undefined ? [] : [renewed].flat().map(String) };
  };

  /** A signed-in page drawn whole for its visitor (its HTML), or why it is sent as its frame instead. */
  const drawForVisitor = async (
    request: FastifyRequest,
    reply: FastifyReply,
    pathname: string,
    plan: PageReadPlan,
    template: string,
    module: string | undefined,
  ): Promise<string | { frame: FrameReason }> => {
    try {
      const visitor = await readForVisitor(request, plan);
      if ('frame' in visitor) return visitor;
      // With its query: the page draws what it says (Proxies' `?tab=`).
      const result = renderer?.renderPage(request.url, options.site, undefined, Date.now(), visitor.reader);
      if (result?.state.queries === undefined) return { frame: 'render_failed' };
      // Drawn for this visitor alone, with their data (as the API's own answers): never kept here, nor by a cache.
      for (const cookie of visitor.setCookie) reply.header('set-cookie', cookie);
      reply.header('cache-control', 'private, no-store');
      return renderPageHtml(template, {
        appHtml: result.html,
        title: result.title,
        state: result.state,
        ...assetsOf([...modulesOf(pathname, module), ...(result.modules ?? [])]),
      });
    } catch (error) {
      request.log.error({ err: error, pathname }, 'drawing the page for its reader failed; sending its frame');
      return { frame: 'render_failed' };
    }
  };

  const renderPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    pathname: string,
    template: string,
  ): Promise<string> => {
    const page = renderer?.serverPage(pathname);
    if (!renderer || !page) return renderPageHtml(template, { appHtml: '' });
    const plan = renderer.pageReads?.(request.url, readerTimeZone(request)?.told);
    if (plan) {
      const drawn = await drawForVisitor(request, reply, pathname, plan, template, page.module);
      options.customerPages?.inc({ page: pathname, drawn: typeof drawn === 'string' ? 'whole' : drawn.frame });
      if (typeof drawn === 'string') return drawn;
    }
    try {
      const pricing = page.needsPricing ? await options.pricing().catch(() => undefined) : undefined;
      const renderedPath = page.status === 404 ? NOT_FOUND_STAND_IN : pathname;
      const cacheKey = JSON.stringify(pricing?.plans ?? null);
      const kept = rendered.get(renderedPath);
      let html = kept?.key === cacheKey ? kept.html : undefined;
      if (html === undefined) {
        const result = renderer.renderPage(renderedPath, options.site, pricing);
        html = renderPageHtml(template, {
          appHtml: result.html,
          title: result.title,
          state: result.state,
          ...assetsOf(modulesOf(pathname, page.module)),
          data: renderer.preloadData?.(pathname),
        });
        rendered.set(renderedPath, { key: cacheKey, html });
      }
      if (page.status === 404) return html.replaceAll(NOT_FOUND_STAND_IN, () => escapeText(pathname));
      return html;
    } catch (error) {
      // The browser can still render the page itself.
      request.log.error({ err: error, pathname }, 'server rendering failed; sending the app shell');
      return renderPageHtml(template, { appHtml: '' });
    }
  };

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const status = isKnownPagePath(pathname) ? 200 : 404;
    if (!indexHtml) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build`, then start the server again.');
    }
    reply.header('cache-control', 'no-cache');
    // A signed-in page is drawn for the visitor whose session cookie it carries: caches are told it differs with it.
    if (renderer?.pageReads?.(request.url)) reply.header('vary', 'cookie');
    const html = await renderPage(request, reply, pathname, indexHtml);
    return reply.status(status).type('text/html; charset=utf-8').send(html);
  };

  app.get('/', sendPage);
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(pathname) &&
      !pathname.startsWith('/assets/') &&
      path.extname(pathname) === '';
    if (wantsPage) return sendPage(request, reply);
    return reply.status(404).send({ message: `${messages.notFound}: ${request.method} ${pathname}` });
  });
}
