import { paths } from '@storefront/contract';

/**
 * The customers' pages' headings (and the one line under Purchase's), by path: each page draws its own from here, and
 * the dashboard's frame draws the same above its skeleton while the session or the page's code loads (the server renders
 * that frame before any JavaScript arrives), so the page's heading is on screen from the first paint and stays put when
 * the page replaces the skeleton. The admin console is not here: a customer who opens its address gets 'Access Denied'.
 */
export const PAGE_HEADINGS = {
  [paths.overview]: { title: 'Overview' },
  [paths.proxies]: { title: 'Proxies' },
  [paths.usage]: { title: 'Usage' },
  [paths.purchase]: {
    title: 'Purchase Proxies',
    intro:
      'Choose a proxy type and a bundle, then pay on the secure payment page. ISP and PK1 proxies renew monthly until you cancel; residential data never expires.',
  },
  [paths.orderHistory]: { title: 'Order History' },
  [paths.settings]: { title: 'Account Settings' },
} as const satisfies Record<string, PageHeading>;

export interface PageHeading {
  title: string;
  intro?: string;
}

/** The heading of a customer's page by its path, or undefined for any other path. */
export function pageHeadingOf(pathname: string): PageHeading | undefined {
  return Object.hasOwn(PAGE_HEADINGS, pathname) ? PAGE_HEADINGS[pathname as keyof typeof PAGE_HEADINGS] : undefined;
}
