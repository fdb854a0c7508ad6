import { useSyncExternalStore } from 'react';

/** A store that never changes: for `useSyncExternalStore` reads whose server and browser values differ. */
export const subscribeToNothing = () => () => {};

/**
 * True while React hydrates the page the server rendered (and on the server itself), false afterwards and in a page
 * the browser renders alone: a component that reads it renders again once hydration is done.
 */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => false,
    () => true,
  );
}
