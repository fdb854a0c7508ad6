import type { SandboxCheckout, SandboxInvoice } from '@storefront/contract';
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
