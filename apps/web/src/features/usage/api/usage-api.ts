import type { UsageQuery } from '@storefront/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { ordersKeys } from '../../../lib/queries/orders.ts';

/** The failure the page shows when the statistics do not load. */
export const USAGE_LOAD_FAILED = 'Could not load your usage statistics.';

/** The usage statistics of one view, keyed by its query. */
export const usageQuery = (query: UsageQuery, enabled = true) =>
  queryOptions({
    queryKey: [...ordersKeys.all, 'usage-report', query] as const,
    queryFn: ({ signal }) => callApi('getUsage', { query, fallbackMessage: USAGE_LOAD_FAILED, signal }),
    enabled,
    // The previous view's figures stay while the next view's load, so the page does not jump.
    placeholderData: keepPreviousData,
  });

export function useUsage(query: UsageQuery, enabled = true) {
  return useQuery(usageQuery(query, enabled));
}
