import { TIME_ZONE_COOKIE } from '@storefront/contract';
import { createContext, useContext } from 'react';

/**
 * Set by the server renderer: the time zone the reader's browser told it (the `tz` cookie), so that a page drawn on
 * the server writes dates as the browser then does. Undefined in the browser, which writes them in its own zone.
 */
export const ReaderTimeZone = createContext<string | undefined>(undefined);

/** The zone to write dates in (for `formatDate`): the reader's, on the server and in the browser alike. */
export function useTimeZone(): string | undefined {
  return useContext(ReaderTimeZone);
}

/** Tells the server this browser's time zone for the pages it draws (a cookie of the site, a year long). */
export function rememberTimeZone(): void {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const secure = window.location.protocol === 'https:' ? '; secure' : '';
    // biome-ignore lint/suspicious/noDocumentCookie: one write as the page starts; the Cookie Store API is missing from Safari before 18.4
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax${secure}`;
  } catch {
    // Cookies off: the server then draws only the frame of a signed-in page.
  }
}
