import {
  type AuthorizedIpsRequest,
  authorizedIpMessages,
  type PreferencesRequest,
  preferencesMessages,
} from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { accountKeys } from './account-keys.ts';

/** The list, "only from these IPs", and the address this browser comes from. */
export function useAuthorizedIps() {
  return useQuery({
    queryKey: accountKeys.authorizedIps(),
    queryFn: ({ signal }) => callApi('getAuthorizedIps', { fallbackMessage: authorizedIpMessages.fetchFailed, signal }),
  });
}

/** The whole list (and the switch); the answer replaces what is shown. */
export function useSaveAuthorizedIps() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AuthorizedIpsRequest) =>
      callApi('saveAuthorizedIps', { body, fallbackMessage: authorizedIpMessages.saveFailed }),
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.authorizedIps(), saved),
  });
}

export function usePreferences() {
  return useQuery({
    queryKey: accountKeys.preferences(),
    queryFn: ({ signal }) => callApi('getPreferences', { fallbackMessage: preferencesMessages.fetchFailed, signal }),
  });
}

export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PreferencesRequest) =>
      callApi('savePreferences', { body, fallbackMessage: preferencesMessages.saveFailed }),
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.preferences(), saved),
  });
}
