import { addressOf, type EndpointName, routes } from '@storefront/contract';
import type { QueryKey } from '@tanstack/react-query';
import { authQueryKey } from './use-auth.ts';

/**
 * One of a signed-in page's first reads: its API address, as the app's own fetch asks for it, and the query key the
 * page's hook keeps its answer under. A page's module exports its list as `firstReads` (app/pages.tsx).
 */
export interface FirstRead {
  address: string;
  key: QueryKey;
  /** What the page's query keeps of the answer, when not the answer itself. */
  keep?: (answer: unknown) => unknown;
}

/**
 * A page's first reads at its query (`?tab=`), beyond the session check, for a reader in `timeZone` (the zone their
 * browser told; undefined before it has).
 */
export type FirstReads = (search: URLSearchParams, timeZone: string | undefined) => FirstRead[];

export const read = (
  name: EndpointName,
  key: QueryKey,
  input: { params?: Record<string, string>; query?: object; keep?: FirstRead['keep'] } = {},
): FirstRead => ({ address: `/api${addressOf(routes[name].path, input.params, input.query)}`, key, keep: input.keep });

/** The session check, every signed-in page's first read (lib/use-auth.ts). */
export const sessionRead = read('checkSession', authQueryKey);
