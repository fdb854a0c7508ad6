// The import rules of the whole tree (docs/architecture.md, "Import rules (checked)"), checked by `npm run lint`:
// `depcruise apps packages e2e bench scripts --config .dependency-cruiser.cjs`. Type-only imports count like any other.
// Test files (`*.test.ts`, `src/test/`) may reach across the server's layers, as a test builds the whole app; a loop
// is refused for them too.

const server = 'apps/server/src';
const web = 'apps/web/src';
const tests = ['\\.test\\.tsx?$', `^${server}/test/`];

/**
 * Which modules (apps/server/src/modules/<name>/) each module may import, besides itself: today's edges. Every module
 * may also use `auth` (the guards) unless auth uses it, and everything outside `modules/` but the gateway (`payments`,
 * `db`, `lib`, `plugins`, the root's `config.ts` and `errors.ts`). An edge not listed here fails the lint; one that
 * makes a loop stops the lint before it runs (assertNoModuleLoop): move the shared piece down instead (into a module
 * both may use, or `lib/`). A new module is added here, with what it imports.
 */
const MODULE_IMPORTS = {
  admin: ['alerts', 'audit', 'catalogue', 'coupons', 'custom-orders', 'inventory', 'jobs', 'replacements', 'sandbox'],
  alerts: ['audit', 'catalogue', 'notifications'],
  'api-keys': [],
  audit: [],
  auth: ['notifications'],
  billing: ['coupons', 'delivery', 'notifications'],
  catalogue: ['audit'],
  checkout: ['coupons'],
  coupons: ['audit'],
  'custom-orders': ['audit', 'checkout', 'inventory', 'notifications'],
  'customer-settings': ['notifications'],
  delivery: ['notifications'],
  health: [],
  inventory: ['audit', 'delivery', 'orders'],
  jobs: ['billing', 'coupons', 'customer-settings', 'health', 'notifications', 'orders', 'proxy-users'],
  notifications: [],
  orders: ['replacements'],
  replacements: ['delivery'],
  'proxy-users': ['customer-settings', 'notifications'],
  sandbox: ['audit', 'billing', 'jobs', 'top-up'],
  'top-up': ['billing', 'jobs'],
  users: ['notifications'],
};

/** What `name` may import, directly or through others (the allowed edges only). */
function reachable(name, seen = new Set()) {
  for (const next of MODULE_IMPORTS[name] ?? []) {
    if (!seen.has(next)) {
      seen.add(next);
      reachable(next, seen);
    }
  }
  return seen;
}

/** `auth` for every module but auth itself and those auth uses (notifications), which would make a loop. */
const mayUseAuth = (name) => name !== 'auth' && !reachable('auth').has(name);
const allowedImports = (name) => [...MODULE_IMPORTS[name], ...(mayUseAuth(name) ? ['auth'] : [])];

/** Throws when the allowed edges make a loop: a module that may import another must not be importable back. */
function assertNoModuleLoop() {
  const done = new Set();
  const visit = (name, trail) => {
    if (trail.includes(name))
      throw new Error(`.dependency-cruiser.cjs: modules loop: ${[...trail, name].join(' -> ')}`);
    if (done.has(name)) return;
    for (const next of allowedImports(name)) {
      if (!(next in MODULE_IMPORTS)) throw new Error(`.dependency-cruiser.cjs: no module ${next} (from ${name})`);
      visit(next, [...trail, name]);
    }
    done.add(name);
  };
  for (const name of Object.keys(MODULE_IMPORTS)) visit(name, []);
}
assertNoModuleLoop();

const moduleRules = Object.keys(MODULE_IMPORTS).map((name) => ({
  name: 'module-direction',
  comment: `modules/${name} may import ${allowedImports(name).join(', ') || 'no other module'} (MODULE_IMPORTS)`,
  severity: 'error',
  from: { path: `^${server}/modules/${name}/`, pathNot: tests },
  to: { path: `^${server}/modules/`, pathNot: `^${server}/modules/(${[name, ...allowedImports(name)].join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import loop anywhere, type-only imports included: move what both files need into a third.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },

    // The server's layers: lib and db at the bottom, then payments, the modules, the gateway; the plugins and the
    // entry points (app.ts, main.ts, start.ts) above.
    {
      name: 'server-lib-db-stay-low',
      comment: 'lib/ and db/ import no module, nor the gateway, payments or the plugins: pass what they need in.',
      severity: 'error',
      from: { path: `^${server}/(lib|db)/`, pathNot: tests },
      to: { path: `^${server}/(modules|gateway|payments|plugins)/` },
    },
    {
      name: 'payments-import-no-module',
      comment: 'The payment providers (payments/) know nothing of the modules, the gateway or the plugins.',
      severity: 'error',
      from: { path: `^${server}/payments/`, pathNot: tests },
      to: { path: `^${server}/(modules|gateway|plugins)/` },
    },
    {
      name: 'gateway-imports-no-module',
      comment: 'The gateway runs alone (npm run gateway): it imports no module, no plugin and no payment provider.',
      severity: 'error',
      from: { path: `^${server}/gateway/`, pathNot: tests },
      to: { path: `^${server}/(modules|plugins|payments)/` },
    },
    {
      name: 'modules-import-no-gateway',
      comment: 'A module imports nothing of the gateway: what both need (an address rule) goes to lib/.',
      severity: 'error',
      from: { path: `^${server}/modules/`, pathNot: tests },
      to: { path: `^${server}/gateway/` },
    },
    ...moduleRules,
    {
      name: 'module-direction',
      comment: 'A module missing from MODULE_IMPORTS imports no other module: add it there, with what it imports.',
      severity: 'error',
      from: {
        path: `^${server}/modules/([^/]+)/`,
        pathNot: [...tests, `^${server}/modules/(${Object.keys(MODULE_IMPORTS).join('|')})/`],
      },
      to: { path: `^${server}/modules/`, pathNot: `^${server}/modules/$1/` },
    },

    // The web app: features apart from each other, shared code below them.
    {
      name: 'web-feature-isolation',
      comment:
        'A feature imports only its own files, src/components, src/lib, src/config, src/styles (and src/test in ' +
        'its tests) and the contract. Move what two features share to src/components or src/lib.',
      severity: 'error',
      from: { path: `^${web}/features/([^/]+)/` },
      to: {
        path: `^${web}/`,
        pathNot: `^${web}/(features/$1/|components/|lib/|config/|styles/|test/)`,
      },
    },
    {
      name: 'web-shared-imports-no-feature',
      comment:
        'Shared code (src/components, src/lib, src/config) imports no feature, nor src/app (which imports them).',
      severity: 'error',
      from: { path: `^${web}/(components|lib|config)/` },
      to: { path: `^${web}/(features|app)/` },
    },

    // Web and server meet only in the contract (packages/contract).
    {
      name: 'web-never-imports-the-server',
      comment: 'The web app talks to the server over HTTP only.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^(apps/server/|@storefront/server)' },
    },
    {
      name: 'server-never-imports-the-web',
      comment: 'The server never imports the web app (it loads its build, never its sources).',
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: '^(apps/web/|@storefront/web)' },
    },
    {
      name: 'contract-imports-no-app',
      comment: 'The contract is what the web and the server share: it imports neither.',
      severity: 'error',
      from: { path: '^packages/contract/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|dist-ssr)/' },
    // swc reads TypeScript as written, type-only imports included. dependency-cruiser's other TypeScript reader needs
    // typescript below 7, whose API it does not support yet.
    parser: 'swc',
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    // Reuses what an earlier run read of each file whose content is unchanged: a re-run reads only what changed.
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
