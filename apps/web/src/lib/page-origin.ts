import { site } from '../config/site.ts';

/**
 * The shop's public origin (APP_URL's, from the site config), which the addresses shown for tools start with: the same
 * on the server and in the browser, whatever address the page was opened at; the browser's own without a config (the
 * Vite dev server).
 */
export function shopOrigin(): string {
  return site.origin || window.location.origin;
}
