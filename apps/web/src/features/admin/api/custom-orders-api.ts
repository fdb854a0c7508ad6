import { type AdminUserLookup, type CustomOrder, customOrderMessages } from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { auditKeys, customOrderKeys } from './admin-keys.ts';

/** GET /api/admin/users?email=: the customer and their custom orders (spec section 2 'Custom Ordering'). */
export function useUserLookup(email: string | null) {
  return useQuery({
    queryKey: customOrderKeys.user(email),
    enabled: email !== null,
    retry: false,
    queryFn: ({ signal }) =>
      apiRequest<AdminUserLookup>(`/admin/users?email=${encodeURIComponent(email ?? '')}`, {
        fallbackMessage: customOrderMessages.fetchUserFailed,
        signal,
      }),
  });
}

export function useCreateCustomOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; quantity: number; coupon?: string }) =>
      apiRequest<{ checkoutUrl: string }>('/admin/checkout/pk1/custom', {
        method: 'POST',
        body: input,
        fallbackMessage: customOrderMessages.createFailed,
      }),
    // Spec section 4: after creating a custom order the user is looked up again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customOrderKeys.all }),
  });
}

export function useFulfilCustomOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; orderId: string; ips: string[] }) =>
      apiRequest<{ customOrders: CustomOrder[] }>('/admin/orders/fulfill', {
        method: 'POST',
        body: input,
        fallbackMessage: customOrderMessages.fulfilFailed,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: customOrderKeys.all });
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
    },
  });
}
