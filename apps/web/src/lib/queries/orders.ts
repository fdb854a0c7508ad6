import { ordersMessages } from '@storefront/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../api-client.ts';

/**
 * The query keys of the customer's orders (TanStack Query's key factory): `ordersKeys.all` covers every one of them;
 * a change invalidates only the keys it changed.
 */
export const ordersKeys = {
  all: ['orders'] as const,
  list: () => [...ordersKeys.all, 'list'] as const,
  usage: () => [...ordersKeys.all, 'usage'] as const,
  dailyUsage: () => [...ordersKeys.all, 'daily-usage'] as const,
  processing: () => [...ordersKeys.all, 'processing'] as const,
  history: () => [...ordersKeys.all, 'history'] as const,
};

/** Spec section 9: the order list refreshes every 5 seconds while any order is processing. */
export const PROCESSING_REFRESH_MS = 5000;

/** The customer's orders, shared by the Overview and Proxies pages. */
export function useOrders({ refreshWhileProcessing = false } = {}) {
  return useQuery({
    queryKey: ordersKeys.list(),
    queryFn: ({ signal }) => callApi('listOrders', { fallbackMessage: ordersMessages.fetchOrdersFailed, signal }),
    refetchInterval: (query) =>
      refreshWhileProcessing && query.state.data?.some((order) => order.processing) ? PROCESSING_REFRESH_MS : false,
  });
}

/** The residential usage of the customer's orders, shared by the Overview and Proxies pages. */
export function useOrderUsage() {
  return useQuery({
    queryKey: ordersKeys.usage(),
    queryFn: ({ signal }) => callApi('listOrderUsage', { fallbackMessage: ordersMessages.fetchUsageFailed, signal }),
  });
}
