import {
  type ConnectionTestRequest,
  ordersMessages,
  type ReplacementRequest,
  replacementMessages,
} from '@storefront/contract';
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

/** An order's replacement history (and allowance); under ordersKeys.all, so that a refresh of the orders reloads it. */
export const replacementsKey = (orderId: string) => [...ordersKeys.all, 'replacements', orderId] as const;

/**
 * A page of an order's replacements, newest first (the first, or the one after `after`), with the period's allowance.
 * Pages are plain queries: an infinite query would put its code in the file every signed-in page loads.
 */
export function useReplacementPage(orderId: string, after?: string) {
  return useQuery({
    queryKey: [...replacementsKey(orderId), after ?? null],
    queryFn: ({ signal }) =>
      callApi('listReplacements', {
        params: { id: orderId },
        query: after ? { after } : {},
        fallbackMessage: replacementMessages.historyFailed,
        signal,
      }),
  });
}

/** What replacing these IPs would do: the allowance it uses and how many get a new IP at once. */
export function usePreviewReplacement(orderId: string) {
  return useMutation({
    mutationFn: (body: ReplacementRequest) =>
      callApi('previewReplacement', {
        params: { id: orderId },
        body,
        fallbackMessage: replacementMessages.previewFailed,
      }),
  });
}

/** Replaces the IPs; the order list (new lines) and its history are read again. */
export function useReplaceIps(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReplacementRequest) =>
      callApi('replaceIps', { params: { id: orderId }, body, fallbackMessage: replacementMessages.replaceFailed }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ordersKeys.list() });
      void queryClient.invalidateQueries({ queryKey: replacementsKey(orderId) });
    },
  });
}
