// What each route loads up front, read from the build: the entry's scripts (index.html) and, for a split-off route,
// its chunk and every chunk that chunk imports statically (the build manifest), with gzipped sizes. Used by the bundle
// budget (bundle-budget.ts, part of `npm run build`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { LANDING_JS_BUDGET_BYTES, landingAssets } from './landing-bundle.ts';

const KB = 1024;

export interface Route {
  name: string;
  /** Build manifest keys of the split-off modules the route renders (the dashboard's layout and its page). */
  modules: string[];
  /** JavaScript gzip, entry included, it may not grow past. */
  budgetBytes: number;
  /** Whether a customer opens it: then none of its chunks may hold the admin console's code. */
  customer: boolean;
  /** Files it may load before it shows, when not MAX_ROUTE_FILES. */
  maxFiles?: number;
}

const layout = 'src/features/dashboard/components/dashboard-layout.tsx';
/** The admin route's own chunk: it checks the role before the console (admin-page.tsx, its own chunk) is imported. */
const adminGate = 'src/features/dashboard/components/admin-route.tsx';

/**
 * The budgets: each route's figure when they were set (docs/benchmarks.md, "Page sizes", 2026-11-29) with about 3 % of
 * room, and at most the 160 KB a signed-in page may load for those that reach it, so that a page's first visit growing
 * by a component or a library fails the build: load it when it is needed (docs/decisions/2026-11-29-light-pages.md,
 * 2026-11-29-pages-under-160-kb.md) or raise the budget with a reason. A signed-in page's figure is its first
 * visit's (the entry, the dashboard's frame, the shared file, its chunk and the files of the fields it draws); the next
 * pages load only their own chunks.
 */
export const ROUTES: Route[] = [
  { name: 'Landing', modules: [], budgetBytes: LANDING_JS_BUDGET_BYTES, customer: true },
  {
    name: 'Overview',
    modules: [layout, 'src/features/dashboard/components/overview-page.tsx'],
    budgetBytes: 160 * KB,
    customer: true,
  },
  {
    name: 'Proxies',
    modules: [layout, 'src/features/proxies/components/proxies-page.tsx'],
    // The Proxy Users card draws a menu of actions per user (Mantine's Menu, in the overlays' file) as the page shows.
    budgetBytes: 226 * KB,
    customer: true,
  },
  {
    name: 'Usage',
    modules: [layout, 'src/features/usage/components/usage-page.tsx'],
    // Its fields are native (a select, a date input) and its chart drawn by hand, so it loads no form fields' file.
    budgetBytes: 160 * KB,
    customer: true,
  },
  {
    name: 'Purchase',
    modules: [layout, 'src/features/purchase/components/purchase-page.tsx'],
    budgetBytes: 199 * KB,
    customer: true,
  },
  {
    name: 'Order History',
    modules: [layout, 'src/features/order-history/components/order-history-page.tsx'],
    budgetBytes: 160 * KB,
    customer: true,
  },
  {
    name: 'Settings',
    modules: [layout, 'src/features/account/components/settings-page.tsx'],
    budgetBytes: 189 * KB,
    customer: true,
  },
  {
    name: 'Admin',
    modules: [layout, adminGate, 'src/features/admin/components/admin-page.tsx'],
    budgetBytes: 209 * KB,
    customer: false,
    // What the console's chunk and its split-off tabs share (its query keys, the contract's words for it) is a file
    // of its own, which no customer loads: to bring back to seven.
    maxFiles: 8,
  },
  // What a customer who opens /dashboard/admin loads: the role's gate and 'Access Denied', none of the console.
  { name: 'Admin, denied', modules: [layout, adminGate], budgetBytes: 160 * KB, customer: true },
  // The server-drawn public pages besides the landing: shown before their JavaScript, which loads after.
  {
    name: 'Privacy, Terms',
    modules: ['src/features/legal/components/privacy-page.tsx'],
    budgetBytes: 154 * KB,
    customer: true,
  },
  { name: 'Not found', modules: ['src/features/errors/not-found-page.tsx'], budgetBytes: 153 * KB, customer: true },
  { name: 'Sign in', modules: ['src/features/auth/components/login-page.tsx'], budgetBytes: 179 * KB, customer: true },
  {
    name: 'Sign up',
    modules: ['src/features/auth/components/signup-page.tsx'],
    budgetBytes: 179 * KB,
    customer: true,
  },
];

/**
 * The most JavaScript files a route may load before it shows (the admin console's count when it was set): on HTTP/1.1
 * a browser fetches six at a time from one host, and each further round costs a phone a network round trip. The build
 * once made 30–60 small ones per page (docs/decisions/2026-11-27-fewer-chunks.md).
 */
export const MAX_ROUTE_FILES = 7;

type BuildManifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

export interface RouteSize {
  route: Route;
  /** Each JavaScript file the route loads before it shows, with its gzipped size. */
  files: { file: string; gzipBytes: number }[];
  totalBytes: number;
  /** Admin console modules found in its chunks (must be none for a customer's route). */
  adminModules: string[];
}

/**
 * zod's modules besides the two its `config` needs (set before a form's schemas are built: src/lib/zod-without-eval.ts,
 * a file of its own): a customer's page loads zod only with a form that checks against a schema, when it opens, so a
 * zod module in a chunk a page loads before it shows means a schema came along with a message or a constant the page
 * imports (schemas live in packages/contract/src/schemas/).
 */
const isZodModule = (module: string) =>
  /(^|[\\/])node_modules[\\/]zod[\\/]/.test(module) && !/[\\/]zod[\\/]v4[\\/]core[\\/](core|util)\.js$/.test(module);

/**
 * Every chunk of the build that holds zod without holding any of the admin console: its file, its zod modules and the
 * app's own modules in it, one of which imports a schema.
 */
export function chunksWithZod(distDir: string): { file: string; zod: string[]; own: string[] }[] {
  const chunkModules: Record<string, string[]> = JSON.parse(
    readFileSync(path.join(distDir, '.vite/chunk-modules.json'), 'utf8'),
  );
  return Object.entries(chunkModules)
    .filter(([, modules]) => !modules.some((module) => module.startsWith('src/features/admin/')))
    .map(([file, modules]) => ({
      file,
      zod: modules.filter(isZodModule),
      own: modules.filter((module) => !module.includes('node_modules')),
    }))
    .filter((chunk) => chunk.zod.length > 0);
}

export function routeSizes(distDir: string): RouteSize[] {
  const manifest: BuildManifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  const chunkModules: Record<string, string[]> = JSON.parse(
    readFileSync(path.join(distDir, '.vite/chunk-modules.json'), 'utf8'),
  );
  const gzipped = new Map<string, number>();
  const gz = (file: string) => {
    let bytes = gzipped.get(file);
    if (bytes === undefined) {
      bytes = gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
      gzipped.set(file, bytes);
    }
    return bytes;
  };
  const entryFiles = landingAssets(distDir).js.map((asset) => asset.file);

  return ROUTES.map((route) => {
    const files = new Set(entryFiles);
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk) throw new Error(`${key} (route ${route.name}) is not in the build manifest`);
      if (files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const module of route.modules) visit(module);
    const sized = [...files].map((file) => ({ file, gzipBytes: gz(file) }));
    const modules = [...files].flatMap((file) => chunkModules[file] ?? []);
    return {
      route,
      files: sized,
      totalBytes: sized.reduce((sum, file) => sum + file.gzipBytes, 0),
      adminModules: modules.filter((module) => module.startsWith('src/features/admin/')),
    };
  });
}
