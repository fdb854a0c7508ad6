import type { SandboxBilling, SandboxCheckout, SandboxInvoice } from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

const checkoutKey = (id: string) => ['sandbox', 'checkout', id] as const;

export function useSandboxCheckout(id: string) {
  return useQuery({
    queryKey: checkoutKey(id),
    queryFn: ({ signal }) =>
      apiRequest<SandboxCheckout>(`/sandbox/checkout/${encodeURIComponent(id)}`, {
        fallbackMessage: 'This checkout could not be loaded.',
        signal,
      }),
    retry: false,
  });
}

export interface SandboxPayment {
  status: 'paid' | 'declined';
  redirectUrl?: string;
  message: string;
}

export function useSandboxPay(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (card: 'ok' | 'declined') =>
      apiRequest<SandboxPayment>(`/sandbox/checkout/${encodeURIComponent(id)}/pay`, {
        method: 'POST',
        body: { card },
        fallbackMessage: 'The payment could not be processed. Please try again.',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: checkoutKey(id) }),
  });
}

export function useSandboxInvoice(id: string) {
  return useQuery({
    queryKey: ['sandbox', 'invoice', id],
    queryFn: ({ signal }) =>
      apiRequest<SandboxInvoice>(`/sandbox/invoices/${encodeURIComponent(id)}`, {
        fallbackMessage: 'This invoice could not be loaded.',
        signal,
      }),
    retry: false,
  });
}

const billingKey = (orderId: string) => ['sandbox', 'billing', orderId] as const;

export function useSandboxBilling(orderId: string) {
  return useQuery({
    queryKey: billingKey(orderId),
    queryFn: ({ signal }) =>
      apiRequest<SandboxBilling>(`/sandbox/orders/${encodeURIComponent(orderId)}/billing`, {
        fallbackMessage: 'This subscription could not be loaded.',
        signal,
      }),
    retry: false,
  });
}

export function useUpdateSandboxCard(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (card: 'ok' | 'declined') =>
      apiRequest<SandboxBilling>(`/sandbox/orders/${encodeURIComponent(orderId)}/card`, {
        method: 'POST',
        body: { card },
        fallbackMessage: 'The card could not be updated. Please try again.',
      }),
    onSuccess: (billing) => {
      queryClient.setQueryData(billingKey(orderId), billing);
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
  });
}
