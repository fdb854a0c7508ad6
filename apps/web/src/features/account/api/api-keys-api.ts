import { type ApiKey, apiKeyMessages, type CreatedApiKey } from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { accountKeys } from './account-keys.ts';

/** GET /api/api-keys: names, first characters and dates; never the keys. */
export function useApiKeys() {
  return useQuery({
    queryKey: accountKeys.apiKeys(),
    queryFn: ({ signal }) => apiRequest<ApiKey[]>('/api-keys', { fallbackMessage: apiKeyMessages.fetchFailed, signal }),
  });
}

/** POST /api/api-keys: the answer holds the whole key, shown this once. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest<CreatedApiKey>('/api-keys', {
        method: 'POST',
        body: { name },
        fallbackMessage: apiKeyMessages.createFailed,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys() }),
  });
}

/** DELETE /api/api-keys/:id */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>(`/api-keys/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        fallbackMessage: apiKeyMessages.revokeFailed,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys() }),
  });
}
