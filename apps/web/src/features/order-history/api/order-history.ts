import { type OrderHistoryEntry, orderHistoryMessages } from '@storefront/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { ordersKeys } from '../../../lib/queries/orders.ts';

export function useOrderHistory() {
  return useQuery({
    queryKey: ordersKeys.history(),
    queryFn: ({ signal }) => callApi('listOrderHistory', { fallbackMessage: orderHistoryMessages.fetchFailed, signal }),
  });
}

/** Spec section 9: newest first by purchased_at. */
export function newestFirst(entries: readonly OrderHistoryEntry[]): OrderHistoryEntry[] {
  return [...entries].sort((a, b) => Date.parse(b.purchased_at) - Date.parse(a.purchased_at));
}

/** The page to show: back to page 1 when the current page no longer exists (spec section 2 'Order history'). */
export function pageWithin(page: number, total: number, pageSize: number): number {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return page > pages ? 1 : page;
}
