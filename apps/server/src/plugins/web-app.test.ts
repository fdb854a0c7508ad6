import { createHash } from 'node:crypto';
import { DEFAULT_SITE_CONFIG } from '@storefront/contract';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  chunkAssetsFrom,
  inlineScriptHashes,
  registerWebApp,
  renderIndexHtml,
  renderPageHtml,
  type WebAppBuild,
} from './web-app.ts';

describe('index.html rendering', () => {
  it('embeds the site config as a JSON block that cannot close the script tag', () => {
    const html = renderIndexHtml('<title>%BRAND_NAME%</title><!--site-config-->', {
      brandName: 'A & B </script>',
      chatCommunityUrl: 'https://chat.example.com/',
      supportUrl: 'https://chat.example.com/',
      socialSignIn: { google: false, discord: true },
      sandboxPayments: true,
      mailsInLog: false,
      connectionTest: false,
      usageDomains: true,
      origin: 'https://shop.example.com',
    });
    expect(html).toContain('<title>A &amp; B &lt;/script&gt;</title>');
    expect(html).toContain('\\u003c/script>');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });

  it('hashes only executable inline scripts', () => {
    const body = 'console.log(1)';
    const hashes = inlineScriptHashes(
      `<script>${body}</script><script type="application/json" id="x">{}</script><script src="/a.js"></script>`,
    );
    expect(hashes).toEqual([`'sha256-${createHash('sha256').update(body).digest('base64')}'`]);
  });
});

describe('server-rendered pages', () => {
  const template =
    '<html><head><title>Brand | Elite ISP, PK1 and residential proxies</title><script src="/assets/index.js"></script></head><body><div id="root"><!--app-html--></div></body></html>';

  it('puts the rendered app, its title, styles, scripts and data into the page', () => {
    const html = renderPageHtml(template, {
      appHtml: '<main>hello</main>',
      title: 'Privacy Policy | A & B',
      state: { readAt: 1, pricing: { success: true, plans: [], message: '</script><script>alert(1)' } },
      styles: ['assets/page.css'],
      scripts: ['assets/page.js'],
    });
    expect(html).toContain('<title>Privacy Policy | A &amp; B</title>');
    expect(html).toContain('<div id="root"><main>hello</main></div>');
    expect(html).toMatch(
      /index\.js"><\/script><link rel="stylesheet" crossorigin href="\/assets\/page\.css"><link rel="modulepreload" crossorigin href="\/assets\/page\.js"><script type="application\/json" id="server-state">.*<\/script><\/head>/,
    );
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });

  it('leaves an empty root and the template title for pages the browser renders', () => {
    const html = renderPageHtml(template, { appHtml: '' });
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('<title>Brand | Elite ISP');
  });

  it('links only the chunks a split-off page needs beyond the entry', () => {
    const manifest = {
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_shared.js'] },
      '_shared.js': { file: 'assets/shared.js' },
      '_layout.js': { file: 'assets/layout.js', css: ['assets/layout.css'], imports: ['index.html', '_shared.js'] },
      'src/page.tsx': { file: 'assets/page.js', css: ['assets/page.css'], imports: ['_layout.js', 'index.html'] },
    };
    expect(chunkAssetsFrom(manifest, 'src/page.tsx')).toEqual({
      styles: ['assets/page.css', 'assets/layout.css'],
      scripts: ['assets/page.js', 'assets/layout.js'],
    });
    expect(chunkAssetsFrom(manifest, 'src/missing.tsx')).toEqual({ styles: [], scripts: [] });
  });

  it('sends the app shell when the renderer fails, so the browser renders the page', async () => {
    const app = Fastify({ logger: false });
    const build: WebAppBuild = {
      indexHtml: template,
      scriptHashes: [],
      renderer: {
        serverPage: () => ({ needsPricing: true, module: undefined, status: 200 }),
        renderPage: () => {
          throw new Error('render failed');
        },
      },
      chunkAssets: () => ({ styles: [], scripts: [] }),
    };
    await registerWebApp(app, {
      distDir: '/nonexistent',
      build,
      site: DEFAULT_SITE_CONFIG,
      pricing: () => Promise.reject(new Error('database down')),
    });
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    await app.close();
  });
});
