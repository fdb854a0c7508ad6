import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { isKnownPagePath, messages, SITE_CONFIG_ELEMENT_ID, type SiteConfig } from '@storefront/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const ONE_YEAR_SECONDS = 31_536_000;

/** Embeds the site config as a JSON data block (never executed, so the CSP needs no exception) and the brand name. */
export function renderIndexHtml(template: string, site: SiteConfig): string {
  const json = JSON.stringify(site).replaceAll('<', '\\u003c');
  const escapeHtml = (text: string) =>
    text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
  return template
    .replace('<!--site-config-->', `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">${json}</script>`)
    .replaceAll('%BRAND_NAME%', escapeHtml(site.brandName));
}

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

export interface WebAppBuild {
  /** index.html with the site config embedded, or undefined when the app is not built. */
  indexHtml: string | undefined;
  scriptHashes: string[];
}

export function loadWebAppBuild(distDir: string, site: SiteConfig): WebAppBuild {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) return { indexHtml: undefined, scriptHashes: [] };
  const indexHtml = renderIndexHtml(readFileSync(indexFile, 'utf8'), site);
  return { indexHtml, scriptHashes: inlineScriptHashes(indexHtml) };
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html never cached, known page paths
 * answered with the app, unknown ones with the app and status 404 (the app renders its 404 page), API paths with JSON.
 */
export async function registerWebApp(app: FastifyInstance, options: { distDir: string; build: WebAppBuild }) {
  const { indexHtml } = options.build;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
      preCompressed: true,
      wildcard: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'cache-control',
          isHashedAsset ? `public, max-age=${ONE_YEAR_SECONDS}, immutable` : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }

  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const status = isKnownPagePath(pathname) ? 200 : 404;
    if (!indexHtml) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build`, then start the server again.');
    }
    return reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
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
