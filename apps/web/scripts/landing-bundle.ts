// What the landing route loads up front, read from the built index.html: its scripts, module preloads and stylesheets,
// with their gzipped sizes. Used by the bundle budget (bundle-budget.ts, part of `npm run build`) and by
// bench/landing-size.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The landing page's JavaScript, gzipped, may not grow past this (docs/decisions/2026-11-22-landing-bundle.md): 150 KB
 * then, its figure of 2026-11-29 with about 3 % of room since (docs/decisions/2026-11-29-light-pages.md).
 */
export const LANDING_JS_BUDGET_BYTES = 126 * 1024;

export interface LandingAsset {
  file: string;
  gzipBytes: number;
}

export function landingAssets(distDir: string): { js: LandingAsset[]; css: LandingAsset[] } {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1] as string);
  const sized = files.map((file) => ({
    file,
    gzipBytes: gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length,
  }));
  return { js: sized.filter((a) => a.file.endsWith('.js')), css: sized.filter((a) => a.file.endsWith('.css')) };
}
