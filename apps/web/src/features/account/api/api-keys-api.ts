import { apiKeyMessages } from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { accountKeys } from './account-keys.ts';

/** Names, first characters and dates; never the keys. */
export function useApiKeys() {
  return useQuery({
    queryKey: accountKeys.apiKeys(),
    queryFn: ({ signal }) => callApi('listApiKeys', { fallbackMessage: apiKeyMessages.fetchFailed, signal }),
  });
}

/** The answer holds the whole key, shown this once. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      callApi('createApiKey', { body: { name }, fallbackMessage: apiKeyMessages.createFailed }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys() }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      callApi('revokeApiKey', { params: { id }, fallbackMessage: apiKeyMessages.revokeFailed }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys() }),
  });
}
