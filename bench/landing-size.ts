// Prints the gzipped bytes of the JavaScript and CSS the landing route loads up front (index.html's scripts,
// module preloads and stylesheets), and of the lazy chunks for comparison; then the server-rendered HTML and its cost.
// Needs `npm run build`.
import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { recordProof } from '../apps/server/src/test/proof-results.ts';
import { LANDING_JS_BUDGET_BYTES, landingAssets } from '../apps/web/scripts/landing-bundle.ts';
import { startServer } from './start-server.ts';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const { js, css } = landingAssets(dist);
const initial = [...js, ...css].map((asset) => asset.file);
const gz = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const jsBytes = js.reduce((sum, asset) => sum + asset.gzipBytes, 0);
const cssBytes = css.reduce((sum, asset) => sum + asset.gzipBytes, 0);
const lazy = readdirSync(path.join(dist, 'assets'))
  .map((f) => `assets/${f}`)
  .filter((f) => f.endsWith('.js') && !initial.includes(f));
const lazyBytes = lazy.reduce((sum, f) => sum + gz(f), 0);

console.log('landing route, loaded up front (gzip -9):');
for (const f of initial) console.log(`  ${f.padEnd(44)} ${kb(gz(f))}`);
console.log(`  JavaScript ${kb(jsBytes)} (budget ${kb(LANDING_JS_BUDGET_BYTES)})  CSS ${kb(cssBytes)}`);
console.log(`lazy chunks: ${lazy.length}, ${kb(lazyBytes)} in all`);
recordProof(
  'landing bundle (gzip)',
  { javascript: kb(jsBytes), budget: kb(LANDING_JS_BUDGET_BYTES), css: kb(cssBytes) },
  'build',
);

// The server-rendered page itself, as the server sends it (brotli), and what a rendering costs on this machine.
const port = 3315;
const server = await startServer(port);
try {
  const rawPage = (url: string) =>
    new Promise<{ bytes: number; status: number }>((resolve, reject) => {
      get(`http://127.0.0.1:${port}${url}`, { headers: { 'accept-encoding': 'br' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on('end', () => resolve({ bytes, status: response.statusCode ?? 0 }));
      }).on('error', reject);
    });
  const plain = await (await fetch(`http://127.0.0.1:${port}/`)).text();
  console.log(
    `landing HTML (server-rendered): ${kb(Buffer.byteLength(plain))}, ${kb((await rawPage('/')).bytes)} as sent (br)`,
  );
  const timeOf = async (label: string, url: (i: number) => string) => {
    const runs = 200;
    const started = performance.now();
    for (let i = 0; i < runs; i++) await rawPage(url(i));
    console.log(`  ${label}: ${((performance.now() - started) / runs).toFixed(2)} ms a request (${runs} in a row)`);
  };
  await timeOf('GET / (kept rendering while prices are unchanged)', () => '/');
  await timeOf('GET /<unknown> (one 404 rendering, each path written in)', (i) => `/missing-${i}`);
} finally {
  server.kill('SIGTERM');
}
