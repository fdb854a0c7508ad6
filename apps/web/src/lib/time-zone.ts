import { knownTimeZone, TIME_ZONE_COOKIE } from '@storefront/contract';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { subscribeToNothing } from './use-hydrating.ts';

/**
 * The time zone a page drawn for its reader writes dates in: the one their browser told the server (the `tz` cookie),
 * set by the server renderer and, for the same page, by the browser's entry (from the page's server state). Undefined
 * in a page the browser draws alone.
 */
export const ReaderTimeZone = createContext<string | undefined>(undefined);

/**
 * The zone to write dates in (for `formatDate`; undefined: the browser's own). On the server the reader's; in the
 * browser, while it hydrates a drawn page, the zone the page was drawn in, so that its first render says what the
 * server's did even when the computer's zone has changed since the cookie was set; then the browser's own. (The
 * browser's entry gives no zone when the page was drawn in the browser's own, so nothing renders twice for it.)
 */
export function useTimeZone(): string | undefined {
  const drawnIn = useContext(ReaderTimeZone);
  return useSyncExternalStore(
    subscribeToNothing,
    () => undefined,
    () => drawnIn,
  );
}

/**
 * The zone a drawn page's first reads were asked in: the reader's browser's own name of its zone (the `tz` cookie as
 * written), which this server's engine may name otherwise ('Asia/Calcutta' for 'Asia/Kolkata').
 */
export const ReadsTimeZone = createContext<string | undefined>(undefined);

/**
 * The zone to ask for figures of days and hours in: while a drawn page renders on the server and hydrates, the one its
 * first reads were asked in (so that its queries find them); then, and in a page the browser draws alone, the
 * browser's own.
 */
export function useReadsTimeZone(): string | undefined {
  const drawnWith = useContext(ReadsTimeZone);
  return useSyncExternalStore(subscribeToNothing, browserTimeZone, () => drawnWith ?? browserTimeZone());
}

/** The zone this browser writes dates in. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * The zone a page drawn for its reader was written in (its server state's), when it is not this browser's: its `tz`
 * cookie predates a change of the computer's zone. Both names as this browser's engine spells them, since the server's
 * may spell one zone another way ('Asia/Calcutta' for 'Asia/Kolkata'). Undefined when they are the same zone.
 */
export function drawnInAnotherZone(drawnIn: string | undefined): string | undefined {
  const drawn = knownTimeZone(drawnIn);
  return drawn !== undefined && drawn !== knownTimeZone(browserTimeZone()) ? drawn : undefined;
}

/** Tells the server this browser's time zone for the pages it draws (a cookie of the site, a year long). */
export function rememberTimeZone(): void {
  const zone = browserTimeZone();
  if (!zone) return;
  try {
    const secure = window.location.protocol === 'https:' ? '; secure' : '';
    // biome-ignore lint/suspicious/noDocumentCookie: one write as the page starts; the Cookie Store API is missing from Safari before 18.4
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax${secure}`;
  } catch {
    // Cookies off: the server then draws only the frame of a signed-in page.
  }
}
