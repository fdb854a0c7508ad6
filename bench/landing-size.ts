// Prints the gzipped bytes of the JavaScript and CSS the landing route loads up front (index.html's scripts,
// module preloads and stylesheets), and of the lazy chunks for comparison. Needs `npm run build`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] as string);
const gz = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const js = initial.filter((f) => f.endsWith('.js'));
const css = initial.filter((f) => f.endsWith('.css'));
const jsBytes = js.reduce((sum, f) => sum + gz(f), 0);
const cssBytes = css.reduce((sum, f) => sum + gz(f), 0);
const lazy = readdirSync(path.join(dist, 'assets'))
  .map((f) => `assets/${f}`)
  .filter((f) => f.endsWith('.js') && !initial.includes(f));
const lazyBytes = lazy.reduce((sum, f) => sum + gz(f), 0);

console.log('landing route, loaded up front (gzip -9):');
for (const f of initial) console.log(`  ${f.padEnd(44)} ${kb(gz(f))}`);
console.log(`  JavaScript ${kb(jsBytes)} (budget 150 KB)  CSS ${kb(cssBytes)}`);
console.log(`lazy chunks: ${lazy.length}, ${kb(lazyBytes)} in all`);
