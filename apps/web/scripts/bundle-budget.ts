// Fails the build when the landing page's JavaScript (gzipped, everything index.html loads up front) grows past its
// budget. Run by `npm run build` after Vite.
import path from 'node:path';
import { LANDING_JS_BUDGET_BYTES, landingAssets } from './landing-bundle.ts';

const dist = path.resolve(import.meta.dirname, '../dist');
const { js } = landingAssets(dist);
const total = js.reduce((sum, asset) => sum + asset.gzipBytes, 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
if (total > LANDING_JS_BUDGET_BYTES) {
  console.error(
    `The landing page loads ${kb(total)} of JavaScript (gzip), over its budget of ${kb(LANDING_JS_BUDGET_BYTES)}:`,
  );
  for (const asset of js) console.error(`  ${asset.file} ${kb(asset.gzipBytes)}`);
  console.error('Load the new code lazily (React.lazy, a dynamic import), or raise the budget in a decision record.');
  process.exit(1);
}
console.log(`landing JavaScript ${kb(total)} gzip, within its budget of ${kb(LANDING_JS_BUDGET_BYTES)}`);
