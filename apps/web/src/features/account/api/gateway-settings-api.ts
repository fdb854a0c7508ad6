import {
  type AuthorizedIps,
  type AuthorizedIpsRequest,
  authorizedIpMessages,
  type Preferences,
  preferencesMessages,
} from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { accountKeys } from './account-keys.ts';

/** GET /api/user/authorized-ips: the list, "only from these IPs", and the address this browser comes from. */
export function useAuthorizedIps() {
  return useQuery({
    queryKey: accountKeys.authorizedIps(),
    queryFn: ({ signal }) =>
      apiRequest<AuthorizedIps>('/user/authorized-ips', { fallbackMessage: authorizedIpMessages.fetchFailed, signal }),
  });
}

/** PUT /api/user/authorized-ips: the whole list (and the switch); the answer replaces what is shown. */
export function useSaveAuthorizedIps() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AuthorizedIpsRequest) =>
      apiRequest<AuthorizedIps>('/user/authorized-ips', {
        method: 'PUT',
        body,
        fallbackMessage: authorizedIpMessages.saveFailed,
      }),
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.authorizedIps(), saved),
  });
}

export function usePreferences() {
  return useQuery({
    queryKey: accountKeys.preferences(),
    queryFn: ({ signal }) =>
      apiRequest<Preferences>('/user/preferences', { fallbackMessage: preferencesMessages.fetchFailed, signal }),
  });
}

export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Preferences) =>
      apiRequest<Preferences>('/user/preferences', {
        method: 'PUT',
        body,
        fallbackMessage: preferencesMessages.saveFailed,
      }),
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.preferences(), saved),
  });
}
