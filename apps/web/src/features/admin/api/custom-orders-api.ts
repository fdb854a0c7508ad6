import { type BodyOf, customOrderMessages, type Endpoints } from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { auditKeys, customOrderKeys } from './admin-keys.ts';

/** GET /api/admin/users?email=: the customer and their custom orders (spec section 2 'Custom Ordering'). */
export function useUserLookup(email: string | null) {
  return useQuery({
    queryKey: customOrderKeys.user(email),
    enabled: email !== null,
    retry: false,
    queryFn: ({ signal }) =>
      callApi('lookUpCustomer', {
        query: { email: email ?? '' },
        fallbackMessage: customOrderMessages.fetchUserFailed,
        signal,
      }),
  });
}

/** GET /api/admin/users/search?q=: up to twenty customers an administrator may mean. */
export function useFindCustomers() {
  return useMutation({
    mutationFn: (query: string) =>
      callApi('findCustomers', { query: { q: query }, fallbackMessage: customOrderMessages.fetchUserFailed }),
  });
}

export function useCreateCustomOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BodyOf<Endpoints['createCustomCheckout']>) =>
      callApi('createCustomCheckout', {
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
    mutationFn: (input: BodyOf<Endpoints['fulfilCustomOrder']>) =>
      callApi('fulfilCustomOrder', {
        body: input,
        fallbackMessage: customOrderMessages.fulfilFailed,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: customOrderKeys.all });
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
    },
  });
}
