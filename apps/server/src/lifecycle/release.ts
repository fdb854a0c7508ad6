import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run package` bundles the server and defines these two names (scripts/package.ts); run from the source tree they
// are undefined, and the files are found where the repository keeps them.
declare global {
  var STOREFRONT_VERSION: string | undefined;
  var STOREFRONT_COMMIT: string | undefined;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const isRelease = globalThis.STOREFRONT_VERSION !== undefined;

/** Where the shop's own files are: beside the bundle in `release/`, or in the repository. */
export const shippedPaths = isRelease
  ? {
      // release/app/<chunk>.js
      webDist: path.resolve(here, '../web/dist'),
      migrations: path.resolve(here, '../migrations'),
    }
  : {
      // apps/server/src/lifecycle/release.ts
      webDist: path.resolve(here, '../../../web/dist'),
      migrations: path.resolve(here, '../../drizzle'),
    };

function sourceVersion(): { version: string; commit: string } {
  const root = path.resolve(here, '../../../..');
  let version = 'unknown';
  try {
    version =
      (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? version;
  } catch {}
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    })
      .toString()
      .trim();
  } catch {}
  return { version, commit };
}

let known: { version: string; commit: string } | undefined;

/** The version in package.json and the git commit it was built from (read from git when run from the source tree). */
export function buildInfo(): { version: string; commit: string } {
  known ??= isRelease
    ? { version: globalThis.STOREFRONT_VERSION ?? 'unknown', commit: globalThis.STOREFRONT_COMMIT ?? 'unknown' }
    : sourceVersion();
  return known;
}
