import type { AnswerOf, Endpoints } from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { ordersKeys } from '../../../lib/queries/orders.ts';

/** The query keys of the sandbox provider's pages (TanStack Query's key factory). */
export const sandboxKeys = {
  all: ['sandbox'] as const,
  checkout: (id: string) => [...sandboxKeys.all, 'checkout', id] as const,
  invoice: (id: string) => [...sandboxKeys.all, 'invoice', id] as const,
  billing: (orderId: string) => [...sandboxKeys.all, 'billing', orderId] as const,
  cardSetup: (id: string) => [...sandboxKeys.all, 'card-setup', id] as const,
};

export function useSandboxCheckout(id: string) {
  return useQuery({
    queryKey: sandboxKeys.checkout(id),
    queryFn: ({ signal }) =>
      callApi('getSandboxCheckout', {
        params: { id },
        fallbackMessage: 'This checkout could not be loaded.',
        signal,
      }),
    retry: false,
  });
}

export type SandboxPayment = AnswerOf<Endpoints['paySandboxCheckout']>;

export function useSandboxPay(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (card: 'ok' | 'declined') =>
      callApi('paySandboxCheckout', {
        params: { id },
        body: { card },
        fallbackMessage: 'The payment could not be processed. Please try again.',
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sandboxKeys.checkout(id) });
      // A paid checkout is the customer's order now.
      void queryClient.invalidateQueries({ queryKey: ordersKeys.all });
    },
  });
}

export function useSandboxInvoice(id: string) {
  return useQuery({
    queryKey: sandboxKeys.invoice(id),
    queryFn: ({ signal }) =>
      callApi('getSandboxInvoice', {
        params: { id },
        fallbackMessage: 'This invoice could not be loaded.',
        signal,
      }),
    retry: false,
  });
}

export function useSandboxBilling(orderId: string) {
  return useQuery({
    queryKey: sandboxKeys.billing(orderId),
    queryFn: ({ signal }) =>
      callApi('getSandboxBilling', {
        params: { id: orderId },
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
      callApi('setSandboxCard', {
        params: { id: orderId },
        body: { card },
        fallbackMessage: 'The card could not be updated. Please try again.',
      }),
    onSuccess: (billing) => {
      queryClient.setQueryData(sandboxKeys.billing(orderId), billing);
      // A working card after a failed renewal is charged at once: the order's state and history change.
      void queryClient.invalidateQueries({ queryKey: ordersKeys.all });
    },
  });
}

/** The sandbox's stand-in for the provider's page that saves a card for automatic top-up. */
export function useSandboxCardSetup(id: string) {
  return useQuery({
    queryKey: sandboxKeys.cardSetup(id),
    queryFn: ({ signal }) =>
      callApi('getSandboxCardSetup', {
        params: { id },
        fallbackMessage: 'This card page could not be loaded.',
        signal,
      }),
    retry: false,
  });
}

export function useSaveSandboxCard(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (card: 'ok' | 'declined') =>
      callApi('saveSandboxCard', {
        params: { id },
        body: { card },
        fallbackMessage: 'The card could not be saved. Please try again.',
      }),
    onSuccess: (setup) => queryClient.setQueryData(sandboxKeys.cardSetup(id), setup),
  });
}
