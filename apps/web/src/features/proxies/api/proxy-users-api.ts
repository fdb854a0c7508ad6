import {
  type CreateProxyUserRequest,
  type NewProxyUserPasswordRequest,
  proxyUserMessages,
  type UpdateProxyUserRequest,
} from '@storefront/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';

export const proxyUserKeys = {
  all: ['proxy-users'] as const,
  list: () => [...proxyUserKeys.all, 'list'] as const,
  password: (id: string) => [...proxyUserKeys.all, 'password', id] as const,
  history: (id: string) => [...proxyUserKeys.all, 'history', id] as const,
};

/** The customer's proxy users (never their passwords), for the card and the list generator. */
export function useProxyUsers(enabled: boolean) {
  return useQuery({
    queryKey: proxyUserKeys.list(),
    enabled,
    queryFn: ({ signal }) => callApi('listProxyUsers', { fallbackMessage: proxyUserMessages.fetchFailed, signal }),
  });
}

/** A proxy user's password, asked for when shown or when the generator writes its lines; kept only while in use. */
export function useProxyUserPassword(id: string | null) {
  return useQuery({
    queryKey: proxyUserKeys.password(id ?? ''),
    enabled: id !== null,
    gcTime: 0,
    staleTime: 0,
    queryFn: ({ signal }) =>
      callApi('showProxyUserPassword', {
        params: { id: id ?? '' },
        fallbackMessage: proxyUserMessages.passwordFailed,
        signal,
      }),
  });
}

export function useCreateProxyUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProxyUserRequest) =>
      callApi('createProxyUser', { body, fallbackMessage: proxyUserMessages.createFailed }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proxyUserKeys.list() }),
  });
}

export function useUpdateProxyUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateProxyUserRequest }) =>
      callApi('updateProxyUser', { params: { id }, body, fallbackMessage: proxyUserMessages.saveFailed }),
    onSuccess: (_answer, { id }) => {
      void queryClient.invalidateQueries({ queryKey: proxyUserKeys.list() });
      void queryClient.invalidateQueries({ queryKey: proxyUserKeys.history(id) });
    },
  });
}

export function useNewProxyUserPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: NewProxyUserPasswordRequest }) =>
      callApi('newProxyUserPassword', { params: { id }, body, fallbackMessage: proxyUserMessages.saveFailed }),
    onSuccess: (_answer, { id }) => queryClient.removeQueries({ queryKey: proxyUserKeys.password(id) }),
  });
}

export function useDeleteProxyUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      callApi('deleteProxyUser', { params: { id }, fallbackMessage: proxyUserMessages.deleteFailed }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proxyUserKeys.list() }),
  });
}

/** An allowance's history, newest first, a page at a time by position. */
export function useAllowanceHistory(id: string) {
  return useInfiniteQuery({
    queryKey: proxyUserKeys.history(id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi('listAllowanceChanges', {
        params: { id },
        query: pageParam ? { before: pageParam } : {},
        fallbackMessage: proxyUserMessages.historyFailed,
        signal,
      }),
    getNextPageParam: (page) => page.next ?? undefined,
  });
}
