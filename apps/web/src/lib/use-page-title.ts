import { createContext, useContext, useEffect } from 'react';
import { site } from '../config/site.ts';

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
