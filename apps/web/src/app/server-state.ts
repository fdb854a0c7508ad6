import { SERVER_STATE_ELEMENT_ID, type ServerRenderState } from '@storefront/contract';
import { type DehydratedState, hydrate, type QueryClient } from '@tanstack/react-query';
import { parsePricing, pricingQueryKey } from '../lib/queries/pricing.ts';

/**
 * Puts the data a page was rendered with into the query cache, on the server before rendering and in the browser
 * before hydrating, so both first renders agree. Anything malformed is left out (the page then loads it itself).
 */
export function seedQueryClient(queryClient: QueryClient, state: ServerRenderState): { drawnForReader: boolean } {
  const pricing = parsePricing(state.pricing);
  if (pricing) queryClient.setQueryData(pricingQueryKey, pricing, { updatedAt: state.readAt });
  // A page drawn for its reader: their session and the page's first reads (entry-server.tsx).
  if (!isDehydratedState(state.queries)) return { drawnForReader: false };
  // Fresh as of their arrival by this browser's clock (the page was drawn a moment ago): a clock ahead of the server's
  // would otherwise make them stale at once, and every one would be read again as the page mounts.
  const receivedAt = Date.now();
  hydrate(queryClient, {
    ...state.queries,
    queries: state.queries.queries.map((query) => ({ ...query, state: { ...query.state, dataUpdatedAt: receivedAt } })),
  });
  return { drawnForReader: true };
}

/** The shape TanStack Query's `dehydrate` gives (checked, since it arrives as text). */
function isDehydratedState(value: unknown): value is DehydratedState {
  const state = value as Partial<DehydratedState> | null;
  return typeof state === 'object' && state !== null && Array.isArray(state.queries) && Array.isArray(state.mutations);
}

/** The state block the server embedded in a page it rendered, or undefined (a page the browser renders alone). */
export function readServerState(): ServerRenderState | undefined {
  const element = document.getElementById(SERVER_STATE_ELEMENT_ID);
  if (!element?.textContent) return undefined;
  try {
    const value = JSON.parse(element.textContent) as Partial<ServerRenderState>;
    if (typeof value.readAt !== 'number') return undefined;
    const timeZone = typeof value.timeZone === 'string' ? value.timeZone : undefined;
    const readsTimeZone = typeof value.readsTimeZone === 'string' ? value.readsTimeZone : undefined;
    return { readAt: value.readAt, pricing: value.pricing, queries: value.queries, timeZone, readsTimeZone };
  } catch {
    return undefined;
  }
}
