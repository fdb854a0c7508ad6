// Whether the built web app (apps/web/dist and dist-ssr) is missing or older than what it is built from, and the build
// itself. Used by `npm start` (scripts/start.ts) and `npm run package` (scripts/package.ts), so that neither rebuilds
// what is already up to date.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

/** What `npm run build` reads; a change to any of them makes the build stale. */
const SOURCES = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/scripts',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'package-lock.json',
];

/** What it writes; the oldest of them is compared with the newest source. */
const OUTPUTS = ['apps/web/dist/index.html', 'apps/web/dist/.vite/manifest.json', 'apps/web/dist-ssr/entry-server.js'];

function newestIn(file: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(file)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestIn(path.join(file, entry)));
  }
  return newest;
}

/** Why the web app must be built, or undefined when the build is newer than every source. */
export function webBuildIsStale(base = root): string | undefined {
  let oldestOutput = Number.POSITIVE_INFINITY;
  for (const output of OUTPUTS) {
    try {
      oldestOutput = Math.min(oldestOutput, statSync(path.join(base, output)).mtimeMs);
    } catch {
      return `${output} is missing`;
    }
  }
  for (const source of SOURCES) {
    if (newestIn(path.join(base, source)) > oldestOutput) return `${source} changed since the last build`;
  }
  return undefined;
}

/**
 * Runs `npm run build` and resolves when it succeeded. A SIGTERM or SIGINT meanwhile is passed to the build and this
 * process exits with it, so that a stop during the build leaves nothing running.
 */
export async function buildWebApp(base = root): Promise<void> {
  const npmCli = process.env.npm_execpath;
  // A process group of its own: npm runs the build through shells, which do not pass a signal on to vite, so a stop
  // is sent to the whole group.
  // Always the production build: a NODE_ENV of the caller's (vitest sets `test`) would make vite bundle React's
  // development build, which fails the page budgets.
  const env = { ...process.env, NODE_ENV: 'production' };
  const options = { cwd: base, env, stdio: 'inherit', detached: true } as const;
  const child = npmCli
    ? spawn(process.execPath, [npmCli, 'run', 'build'], options)
    : spawn('npm', ['run', 'build'], options);
  const forward = (signal: NodeJS.Signals) => {
    child.once('exit', () => process.exit(1));
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {}
  };
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`npm run build failed (exit code ${code})`);
  } finally {
    process.off('SIGTERM', forward);
    process.off('SIGINT', forward);
  }
}
