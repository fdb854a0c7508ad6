import { paths } from '@storefront/contract';
import { createContext, useContext, useEffect } from 'react';
import { site } from '../config/site.ts';

/**
 * The signed-in pages' titles by path: the pages set them in the browser and the server writes them into the HTML it
 * draws before the page's code arrives (the dashboard's frame), so both say the same from the first byte.
 */
export const PAGE_TITLES = {
  [paths.overview]: 'Overview',
  [paths.proxies]: 'Proxies',
  [paths.usage]: 'Usage',
  [paths.purchase]: 'Purchase Proxies',
  [paths.orderHistory]: 'Order History',
  [paths.settings]: 'Settings',
  [paths.admin]: 'Admin',
} as const satisfies Record<string, string>;

/** The title of a signed-in page's path, or undefined for any other path. */
export function pageTitleOf(pathname: string): string | undefined {
  return Object.hasOwn(PAGE_TITLES, pathname) ? PAGE_TITLES[pathname as keyof typeof PAGE_TITLES] : undefined;
}

/** The landing page's title is the brand's; every other page is '<title> | <brand>'. */
export function formatPageTitle(title?: string): string {
  return title ? `${title} | ${site.brandName}` : `${site.brandName} | Elite ISP, PK1 and residential proxies`;
}

/** Set by the server renderer only: the page's title lands here during the render, for the document's <title>. */
export const PageTitleSink = createContext<{ title?: string } | null>(null);

export function usePageTitle(title?: string) {
  const full = formatPageTitle(title);
  const sink = useContext(PageTitleSink);
  if (sink) sink.title = full;
  useEffect(() => {
    document.title = full;
  }, [full]);
}

/**
 * The server's render only: the title of a page drawn before its own component renders (the dashboard's frame, whose
 * page waits for the session), taken from PAGE_TITLES. The browser leaves the title to the page itself.
 */
export function useServerPageTitle(pathname: string) {
  const sink = useContext(PageTitleSink);
  const title = pageTitleOf(pathname);
  if (sink && title && sink.title === undefined) sink.title = formatPageTitle(title);
}
