// Fails the build when a route's JavaScript (gzipped, everything it loads before it shows: the entry, its chunk and
// the chunks those import) grows past its budget, when it is spread over more than MAX_ROUTE_FILES files, when a customer's route would load the admin console's code, or when a customer's page would load zod before it shows
// (a form that checks against a schema loads it when it opens).
// Prints each route's figure. Run by `npm run build` after Vite.
import path from 'node:path';
import { chunksWithZod, MAX_ROUTE_FILES, routeSizes } from './route-bundles.ts';

const dist = path.resolve(import.meta.dirname, '../dist');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
let failed = false;
console.log('JavaScript per route (gzip), loaded before the page shows:');
const routes = routeSizes(dist);
for (const { route, files, totalBytes, adminModules } of routes) {
  const over = totalBytes > route.budgetBytes;
  const maxFiles = route.maxFiles ?? MAX_ROUTE_FILES;
  const tooMany = files.length > maxFiles;
  console.log(
    `  ${route.name.padEnd(14)} ${kb(totalBytes).padStart(9)} in ${files.length} file${files.length === 1 ? ' ' : 's'}  budget ${kb(route.budgetBytes).padStart(9)}${over ? '  OVER' : ''}${tooMany ? '  TOO MANY FILES' : ''}`,
  );
  if (tooMany) {
    failed = true;
    console.error(
      `The ${route.name} route loads ${files.length} JavaScript files before it shows, more than ${maxFiles}: ${files.map((file) => file.file).join(', ')}`,
    );
    console.error('  See the chunk groups in apps/web/vite.config.ts (output.codeSplitting).');
  }
  if (over) {
    failed = true;
    console.error(
      `The ${route.name} route loads ${kb(totalBytes)} of JavaScript (gzip), over its budget of ${kb(route.budgetBytes)}:`,
    );
    for (const file of [...files].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
      console.error(`    ${file.file} ${kb(file.gzipBytes)}`);
    }
    console.error(
      '  Load the new code lazily (React.lazy, a dynamic import), or raise the budget in apps/web/scripts/route-bundles.ts with a reason.',
    );
  }
  if (route.customer && adminModules.length > 0) {
    failed = true;
    console.error(
      `The ${route.name} route (a customer's) would load the admin console's code: ${adminModules.slice(0, 5).join(', ')}${adminModules.length > 5 ? ', …' : ''}`,
    );
    console.error('  Import it only from src/features/admin/ (the admin page is its own chunk).');
  }
}
const customerFirstLoad = new Set(
  routes.filter((size) => size.route.customer).flatMap((size) => size.files.map(({ file }) => file)),
);
for (const chunk of chunksWithZod(dist).filter((chunk) => customerFirstLoad.has(chunk.file))) {
  failed = true;
  const schemas = chunk.own.filter((module) => module.includes('/schemas/'));
  console.error(
    `${chunk.file} holds zod (${chunk.zod.slice(0, 3).join(', ')}${chunk.zod.length > 3 ? ', …' : ''}) outside the admin console, with the schemas of ${schemas.join(', ') || 'no contract module'}: one of its modules imports a schema (${chunk.own.length} of the app's modules in it).`,
  );
  console.error(
    "  Keep schemas in packages/contract/src/schemas/ and import a page's messages, constants and rules from the modules beside it.",
  );
}
if (failed) process.exit(1);
