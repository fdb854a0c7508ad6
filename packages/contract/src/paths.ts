/**
 * The one table of the app's page routes. The web router is built from it and the server uses it to answer
 * unknown page paths with status 404 (the page itself is rendered by the app).
 */
export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  authCallback: '/auth/callback',
  privacy: '/privacy',
  terms: '/terms',
  dashboard: '/dashboard',
  overview: '/dashboard/overview',
  proxies: '/dashboard/proxies',
  usage: '/dashboard/usage',
  purchase: '/dashboard/purchase',
  settings: '/dashboard/settings',
  orderHistory: '/dashboard/order-history',
  admin: '/dashboard/admin',
  sandboxCheckout: '/sandbox/checkout/:id',
  sandboxInvoice: '/sandbox/invoices/:id',
  sandboxBilling: '/sandbox/billing/:id',
  sandboxCardSetup: '/sandbox/card/:id',
} as const;

/** The address of a page with parameters: pathTo(paths.sandboxInvoice, { id }) → /sandbox/invoices/in_… */
export function pathTo(path: string, params: Record<string, string | number>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** Page paths the app renders today; a path outside this list is answered with the 404 page. */
export const builtPagePaths: readonly string[] = Object.values(paths);

export function isKnownPagePath(pathname: string): boolean {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const segments = clean.split('/');
  return builtPagePaths.some((path) => {
    const pattern = path.split('/');
    return (
      pattern.length === segments.length &&
      pattern.every((part, index) => (part.startsWith(':') ? (segments[index] ?? '') !== '' : part === segments[index]))
    );
  });
}

/** The Proxies page opened at a product's tab (where a paid checkout returns, and the e-mails link to). */
export function proxiesTabPath(productId: string): string {
  return `${paths.proxies}?tab=${encodeURIComponent(productId)}`;
}

/** Where a paid checkout returns the customer: the product's tab, told that the payment went through (`paid=1`). */
export function paidReturnPath(productId: string): string {
  return `${proxiesTabPath(productId)}&paid=1`;
}
