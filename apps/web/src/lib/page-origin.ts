import { createContext, useContext } from 'react';

/** Set by the server renderer: the origin the page was asked for (the browser's own origin when it renders). */
export const PageOrigin = createContext<string | undefined>(undefined);

/** The origin of this page (scheme, host and port), the same on the server and in the browser's first render. */
export function usePageOrigin(): string {
  return useContext(PageOrigin) ?? window.location.origin;
}
