// `npm run package [-- --out <folder>]`: writes release/, one folder that runs on a bare Node 24 with `node .`
// (docs/operations.md, "The release"): app/ (esbuild's bundles, cli.js first), web/dist and web/dist-ssr, migrations/,
// static/ (Swagger UI), and a package.json carrying the version and the git commit.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { buildWebApp, root, webBuildIsStale } from './web-build.ts';

const { values } = parseArgs({ options: { out: { type: 'string', default: 'release' } } });
const out = path.resolve(root, values.out ?? 'release');
const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
};
const version = rootPackage.version;
// A container build has no .git: it passes the commit in GIT_COMMIT (see Dockerfile).
let commit = process.env.GIT_COMMIT || 'unknown';
if (!process.env.GIT_COMMIT)
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root }).toString();
    if (dirty.trim() !== '') commit += '-modified';
  } catch {
    commit = 'unknown';
  }

const startedAt = Date.now();
const stale = webBuildIsStale();
if (stale) {
  console.log(`Building the web app first (${stale}).`);
  await buildWebApp();
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const node = (file: string) => path.join(root, 'node_modules', file);

await build({
  entryPoints: { commands: path.join(root, 'apps/server/src/cli.ts') },
  outdir: path.join(out, 'app'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  minifySyntax: true,
  minifyWhitespace: true,
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Optional native bindings that the bundled libraries try and do without.
  external: ['pg-native', 'pino-pretty'],
  define: {
    'globalThis.STOREFRONT_VERSION': JSON.stringify(version),
    'globalThis.STOREFRONT_COMMIT': JSON.stringify(commit),
  },
  // CommonJS libraries in an ES module bundle still ask for require, __filename and __dirname.
  banner: {
    js: [
      "import { createRequire as __storefrontRequire } from 'node:module';",
      "import { fileURLToPath as __storefrontPath } from 'node:url';",
      'const require = __storefrontRequire(import.meta.url);',
      'const __filename = __storefrontPath(import.meta.url);',
      "const __dirname = __storefrontPath(new URL('.', import.meta.url));",
    ].join('\n'),
  },
});

// The entry alone, with none of the bundle's modules or banner: it must run, and refuse, on any older Node.
const neededNode = /^>=\s*(\d+)/.exec(rootPackage.engines.node)?.[1];
if (!neededNode)
  throw new Error(`package.json's engines.node must read ">=<major>" (got "${rootPackage.engines.node}")`);
await build({
  entryPoints: { cli: path.join(root, 'apps/server/src/lifecycle/release-entry.ts') },
  outdir: path.join(out, 'app'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node18',
  logLevel: 'warning',
  define: { 'globalThis.STOREFRONT_NODE_MAJOR': JSON.stringify(neededNode) },
});

// PGlite loads these with new URL('./pglite.wasm', import.meta.url): beside the chunks.
for (const file of ['pglite.wasm', 'pglite.data', 'initdb.wasm']) {
  cpSync(node(`@electric-sql/pglite/dist/${file}`), path.join(out, 'app', file));
}
// Swagger UI serves ${__dirname}/../static and reads its logo from ${__dirname}/static.
cpSync(node('@fastify/swagger-ui/static'), path.join(out, 'static'), { recursive: true });
mkdirSync(path.join(out, 'app/static'), { recursive: true });
cpSync(node('@fastify/swagger-ui/static/logo.svg'), path.join(out, 'app/static/logo.svg'));

cpSync(path.join(root, 'apps/web/dist'), path.join(out, 'web/dist'), { recursive: true });
cpSync(path.join(root, 'apps/web/dist-ssr'), path.join(out, 'web/dist-ssr'), { recursive: true });
cpSync(path.join(root, 'apps/server/drizzle'), path.join(out, 'migrations'), { recursive: true });

writeFileSync(
  path.join(out, 'package.json'),
  `${JSON.stringify(
    {
      name: 'proxy-storefront',
      version,
      commit,
      private: true,
      type: 'module',
      main: 'app/cli.js',
      engines: rootPackage.engines,
      scripts: { start: 'node .', jobs: 'node . jobs', gateway: 'node . gateway', migrate: 'node . migrate' },
    },
    null,
    2,
  )}\n`,
);

const size = execFileSync('du', ['-sk', out]).toString().split('\t')[0];
console.log(
  `release ${version} (${commit}) written to ${path.relative(process.cwd(), out) || '.'}: ` +
    `${(Number(size) / 1024).toFixed(1)} MB, in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
);
