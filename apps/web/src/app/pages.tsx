import { paths } from '@storefront/contract';
import { type ComponentType, lazy, useState } from 'react';
import type { FirstRead, FirstReads } from '../lib/first-read.ts';
import { splitPartsOf, takeDrawnParts } from '../lib/split-part.tsx';

// The one route table: every page split off from the entry is declared here once, with its module; a signed-in page's
// module exports its first reads beside its component (`firstReads`, lib/first-read.ts). The browser's router
// (router.tsx) and the server renderer (../entry-server.tsx) both read it.

/** A page split off from the entry: its component, how to load it, and its build manifest key. */
export interface SplitPage<P extends object = object> {
  Page: ComponentType<P>;
  /**
   * Loads its chunk (the browser: ahead of React asking; the server: once, before it renders anything, with the parts
   * its module splits off, `splitParts`: lib/split-part.tsx).
   */
  preload: () => Promise<unknown>;
  /** Its source module, the build manifest's key: the server links its chunk's scripts and styles with the page. */
  module: string;
  /** Another export of its module, once loaded. */
  exported: (name: string) => unknown;
  /**
   * Its module with those of its split-off parts (`splitParts`) the server drew since this was last asked: the chunks
   * and styles the server links with the page it drew (lib/split-part.tsx).
   */
  drawn: () => string[];
}

/**
 * `module` is the same file `load` imports, relative to apps/web (pages.test.ts checks they agree). Once its chunk is
 * loaded the page renders at once (the server renders only loaded pages); before, it suspends while it loads.
 */
function splitPage<K extends string, P extends object = object>(
  module: string,
  load: () => Promise<Record<NoInfer<K>, ComponentType<P>>>,
  name: K,
): SplitPage<P> {
  let source: Record<string, unknown> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = async () => {
    const exports = await load();
    // The server draws a page whole at once: the parts split off from it (a tab's panel) load with it there. The
    // browser draws the page without them and loads each as it nears (lib/split-part.tsx).
    if (import.meta.env.SSR) await Promise.all(splitPartsOf(exports).map((part) => part.preload()));
    source = exports;
    loaded = exports[name];
    return loaded;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Page(props: P) {
    // Chosen once per mount, so a later render never swaps the component (which would remount the page).
    const [Shown] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Shown {...props} />;
  }
  return {
    Page,
    preload,
    module,
    exported: (key) => source?.[key],
    drawn: () => [module, ...takeDrawnParts(splitPartsOf(source ?? {}))],
  };
}

/** A signed-in page: drawn whole by the server for a reader with a session, from its first reads. */
export interface SignedInPage {
  path: string;
  page: SplitPage;
  /**
   * The module whose `firstReads` (FirstReads) the server makes to draw the page, beside its hooks so they keep the
   * same keys: the page's own, or the admin console's.
   */
  readsFrom?: SplitPage;
  /** A page for administrators: anyone else's is drawn from the session alone (it says 'Access Denied'). */
  administrators?: boolean;
}

/** The signed-in pages' frame (header, navigation), which each of them is drawn inside. */
export const dashboardLayout = splitPage(
  'src/features/dashboard/components/dashboard-layout.tsx',
  () => import('../features/dashboard/components/dashboard-layout.tsx'),
  'DashboardLayout',
);

/** The admin console: loaded for an administrator only (the admin route's gate asks for it), never preloaded. */
export const adminConsole = splitPage(
  'src/features/admin/components/admin-page.tsx',
  () => import('../features/admin/components/admin-page.tsx'),
  'AdminPage',
);

/** The admin route's gate; its chunk holds none of the console. */
const adminGate = splitPage<'AdminRoute', { console: ComponentType }>(
  'src/features/dashboard/components/admin-route.tsx',
  () => import('../features/dashboard/components/admin-route.tsx'),
  'AdminRoute',
);

/** Every signed-in page, in the navigation's order. Adding one is adding it here. */
export const signedInPages: SignedInPage[] = [
  {
    path: paths.overview,
    page: splitPage(
      'src/features/dashboard/components/overview-page.tsx',
      () => import('../features/dashboard/components/overview-page.tsx'),
      'OverviewPage',
    ),
  },
  {
    path: paths.proxies,
    page: splitPage(
      'src/features/proxies/components/proxies-page.tsx',
      () => import('../features/proxies/components/proxies-page.tsx'),
      'ProxiesPage',
    ),
  },
  {
    path: paths.usage,
    page: splitPage(
      'src/features/usage/components/usage-page.tsx',
      () => import('../features/usage/components/usage-page.tsx'),
      'UsagePage',
    ),
  },
  {
    path: paths.purchase,
    page: splitPage(
      'src/features/purchase/components/purchase-page.tsx',
      () => import('../features/purchase/components/purchase-page.tsx'),
      'PurchasePage',
    ),
  },
  {
    path: paths.orderHistory,
    page: splitPage(
      'src/features/order-history/components/order-history-page.tsx',
      () => import('../features/order-history/components/order-history-page.tsx'),
      'OrderHistoryPage',
    ),
  },
  {
    path: paths.settings,
    page: splitPage(
      'src/features/account/components/settings-page.tsx',
      () => import('../features/account/components/settings-page.tsx'),
      'SettingsPage',
    ),
  },
  {
    path: paths.admin,
    // The gate with the console: the console is drawn (and its chunk linked) for an administrator only.
    page: { ...adminGate, Page: () => <adminGate.Page console={adminConsole.Page} /> },
    readsFrom: adminConsole,
    administrators: true,
  },
];

/** The public pages split off from the entry; those with a `path` are drawn by the server for everyone alike. */
export const publicPages = {
  privacy: splitPage(
    'src/features/legal/components/privacy-page.tsx',
    () => import('../features/legal/components/privacy-page.tsx'),
    'PrivacyPage',
  ),
  terms: splitPage(
    'src/features/legal/components/terms-page.tsx',
    () => import('../features/legal/components/terms-page.tsx'),
    'TermsPage',
  ),
  notFound: splitPage(
    'src/features/errors/not-found-page.tsx',
    () => import('../features/errors/not-found-page.tsx'),
    'NotFoundPage',
  ),
};

/** The public pages the server draws at their path (beside the landing, which is in the entry). */
export const serverDrawnPublicPages: Record<string, SplitPage> = {
  [paths.privacy]: publicPages.privacy,
  [paths.terms]: publicPages.terms,
};

/** The screens the browser alone renders (sign-in, sandbox): split off, never drawn by the server. */
export const browserPages = {
  login: splitPage(
    'src/features/auth/components/login-page.tsx',
    () => import('../features/auth/components/login-page.tsx'),
    'LoginPage',
  ),
  signup: splitPage(
    'src/features/auth/components/signup-page.tsx',
    () => import('../features/auth/components/signup-page.tsx'),
    'SignupPage',
  ),
  forgotPassword: splitPage(
    'src/features/auth/components/forgot-password-page.tsx',
    () => import('../features/auth/components/forgot-password-page.tsx'),
    'ForgotPasswordPage',
  ),
  resetPassword: splitPage(
    'src/features/auth/components/reset-password-page.tsx',
    () => import('../features/auth/components/reset-password-page.tsx'),
    'ResetPasswordPage',
  ),
  authCallback: splitPage(
    'src/features/auth/components/auth-callback-page.tsx',
    () => import('../features/auth/components/auth-callback-page.tsx'),
    'AuthCallbackPage',
  ),
  sandboxCheckout: splitPage(
    'src/features/sandbox/components/sandbox-checkout-page.tsx',
    () => import('../features/sandbox/components/sandbox-checkout-page.tsx'),
    'SandboxCheckoutPage',
  ),
  sandboxInvoice: splitPage(
    'src/features/sandbox/components/sandbox-invoice-page.tsx',
    () => import('../features/sandbox/components/sandbox-invoice-page.tsx'),
    'SandboxInvoicePage',
  ),
  sandboxBilling: splitPage(
    'src/features/sandbox/components/sandbox-billing-page.tsx',
    () => import('../features/sandbox/components/sandbox-billing-page.tsx'),
    'SandboxBillingPage',
  ),
  sandboxCardSetup: splitPage(
    'src/features/sandbox/components/sandbox-card-setup-page.tsx',
    () => import('../features/sandbox/components/sandbox-card-setup-page.tsx'),
    'SandboxCardSetupPage',
  ),
};

/** The signed-in page at `pathname`, if any. */
export const signedInPageAt = (pathname: string) => signedInPages.find((entry) => entry.path === pathname);

/** A signed-in page's first reads at its query for a reader in `timeZone`, beyond the session check (its module loaded). */
export function firstReadsOf(entry: SignedInPage, search: URLSearchParams, timeZone: string | undefined): FirstRead[] {
  const reads = (entry.readsFrom ?? entry.page).exported('firstReads') as FirstReads | undefined;
  return reads ? reads(search, timeZone) : [];
}

/** Every page the server draws: their chunks are loaded once before it renders anything (entry-server.tsx). */
export const serverDrawnPages: SplitPage[] = [
  ...Object.values(publicPages),
  dashboardLayout,
  adminConsole,
  ...signedInPages.map((entry) => entry.page),
];
