import { createContext, useContext } from 'react';
import { useHydrating } from './use-hydrating.ts';

/**
 * When the page the browser hydrates was drawn (its server state's `readAt`), set by the server renderer and by the
 * browser's entry; undefined in a page the browser draws alone.
 */
export const DrawnAt = createContext<number | undefined>(undefined);

/**
 * The time (epoch milliseconds) to write relative times ('5 minutes ago') and whether something is still active
 * against. While React hydrates a page the server drew, the time it was drawn at, so the browser's first render says
 * what the server's did whatever the seconds between them or the browser's clock; then the browser's own clock.
 */
export function useNow(): number {
  const hydrating = useHydrating();
  const drawnAt = useContext(DrawnAt);
  return hydrating && drawnAt !== undefined ? drawnAt : Date.now();
}
