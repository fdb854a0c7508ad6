import { type Order, type OrderUsage, ordersMessages } from '@storefront/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api-client.ts';

/** The customer's orders and residential usage, shared by the Overview and Proxies pages. */
export const ordersQueryKey = ['orders'] as const;
export const usageQueryKey = ['orders', 'usage'] as const;

/** Spec section 9: the order list refreshes every 5 seconds while any order is processing. */
export const PROCESSING_REFRESH_MS = 5000;

export function useOrders({ refreshWhileProcessing = false } = {}) {
  return useQuery({
    queryKey: ordersQueryKey,
    queryFn: ({ signal }) =>
      apiRequest<Order[]>('/orders', { fallbackMessage: ordersMessages.fetchOrdersFailed, signal }),
    refetchInterval: (query) =>
      refreshWhileProcessing && query.state.data?.some((order) => order.processing) ? PROCESSING_REFRESH_MS : false,
  });
}

export function useOrderUsage() {
  return useQuery({
    queryKey: usageQueryKey,
    queryFn: ({ signal }) =>
      apiRequest<OrderUsage[]>('/orders/usage', { fallbackMessage: ordersMessages.fetchUsageFailed, signal }),
  });
}
