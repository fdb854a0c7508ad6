// `npm start`: builds the web app only when the build is missing or older than its sources, then runs the server in
// this very process. package.json starts it with `exec node`, so npm's child is this node and not a shell: npm passes
// SIGTERM and SIGINT to it, and the server's own stop (finish requests, write meters, close the database) runs.
import { loadConfig } from '../apps/server/src/config.ts';
import { ConfigError, loadEnvFile } from '../apps/server/src/config-shared.ts';
import { buildWebApp, webBuildIsStale } from './web-build.ts';

// The source tree is for trying and developing the shop: the demo inventory and sandbox payments unless NODE_ENV says
// otherwise. A release (`node .`) keeps production as its default (docs/decisions/2026-11-28-production-safety.md).
// `.env` is read first: its NODE_ENV, as the environment's, wins over this default.
loadEnvFile();
process.env.NODE_ENV ??= 'development';

// A refused configuration stops here, before a build it would never use (the server reads it again to start).
try {
  loadConfig(process.env, 'server');
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const stale = webBuildIsStale();
if (stale) {
  console.log(`Building the web app first (${stale}).`);
  await buildWebApp();
}
await import('../apps/server/src/main.ts');
