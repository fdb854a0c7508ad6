import { isOrderActive, type Order, type OrderUsage, ordersMessages } from '@storefront/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export const ordersQueryKey = ['orders'] as const;
export const usageQueryKey = ['orders', 'usage'] as const;

export interface OverviewFigures {
  activeIsp: number;
  activePk1: number;
  /** Residential data used, in percent of what was bought; null is 'No Data'. */
  residentialUsagePercent: number | null;
}

/** The Overview cards from the customer's real orders (spec section 2 'Overview'). */
export function overviewFigures(orders: Order[], usage: OrderUsage[], now: Date = new Date()): OverviewFigures {
  const activeProxies = (productId: Order['product_id']) =>
    orders
      .filter((order) => order.product_id === productId && !order.processing && isOrderActive(order, now))
      .reduce((sum, order) => sum + order.proxies.length, 0);
  const total = usage.reduce((sum, entry) => sum + entry.totalInKb, 0);
  const used = usage.reduce((sum, entry) => sum + entry.usedInKb, 0);
  return {
    activeIsp: activeProxies('isp_proxies'),
    activePk1: activeProxies('pk1_isp_proxies'),
    residentialUsagePercent: total > 0 ? Math.min(100, (used / total) * 100) : null,
  };
}

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
