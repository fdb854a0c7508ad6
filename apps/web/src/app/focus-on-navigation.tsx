import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long a new page may take to show its heading (its code and first data loading) before the focus stays put. */
const HEADING_WAIT_MS = 10_000;

/**
 * After a route change inside the app the focus goes to the new page's heading (its h1, made focusable with
 * tabIndex -1): a screen reader reads where the reader now is, and the next Tab starts from the top of the new page,
 * not from the link pressed on the old one. The first page of a visit is left alone (the browser starts at the top),
 * and so is a focus the person or the page has already moved elsewhere (a dialog that opens, a field they chose).
 */
export function FocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const firstPage = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a change of page only (not of its query or hash)
  useEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    const focusedBefore = document.activeElement;
    const focusUntouched = () => {
      const now = document.activeElement;
      return now === null || now === document.body || now === focusedBefore || !now.isConnected;
    };
    const focusHeading = (): boolean => {
      // Not the heading a loading page's skeleton draws (dashboard-skeleton.tsx): it goes when the page itself arrives.
      const ready = (selector: string) =>
        [...document.querySelectorAll<HTMLElement>(selector)].find((h1) => !h1.closest('[data-page-skeleton]'));
      const heading = ready('main h1') ?? ready('h1');
      if (!heading) return false;
      if (focusUntouched()) {
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus();
      }
      return true;
    };
    if (focusHeading()) return;
    // The page's code or data is still loading: its heading comes later.
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const giveUp = window.setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      window.clearTimeout(giveUp);
    };
  }, [pathname]);
  return null;
}
