import { type ConnectionTestRequest, ordersMessages } from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { ordersKeys, PROCESSING_REFRESH_MS } from '../../../lib/queries/orders.ts';

export function useProcessingOrders() {
  return useQuery({
    queryKey: ordersKeys.processing(),
    queryFn: ({ signal }) =>
      callApi('listProcessingOrders', { fallbackMessage: ordersMessages.fetchProcessingFailed, signal }),
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? PROCESSING_REFRESH_MS : false),
  });
}

/** The answer replaces the whole order list (spec section 4 'Order activity'). */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi('cancelOrder', { body: { id }, fallbackMessage: ordersMessages.cancelFailed }),
    onSuccess: (orders) => queryClient.setQueryData(ordersKeys.list(), orders),
  });
}

/** What the gateway carried per day, for the chart on the Residential tab. */
export function useDailyUsage(enabled: boolean) {
  return useQuery({
    queryKey: ordersKeys.dailyUsage(),
    enabled,
    queryFn: ({ signal }) => callApi('getDailyUsage', { fallbackMessage: ordersMessages.fetchUsageFailed, signal }),
  });
}

/** One request through the gateway with the customer's own line (the Residential tab's 'Test connection'). */
export function useConnectionTest() {
  return useMutation({
    mutationFn: (line: ConnectionTestRequest) =>
      callApi('testResidentialConnection', { body: line, fallbackMessage: ordersMessages.connectionTestFailed }),
  });
}
