import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callApi } from './api-client.ts';

export const authQueryKey = ['auth', 'me'] as const;

/**
 * The signed-in user and role from GET /api/user/auth. Each check also extends the session cookie when it is more than
 * a day old, so refetching every ten minutes and on focus keeps an open tab signed in.
 */
export const fetchAuthCheck = ({ signal }: { signal?: AbortSignal }) =>
  callApi('checkSession', { fallbackMessage: 'Could not check your session', signal });

export function useAuth() {
  const query = useQuery({
    queryKey: authQueryKey,
    queryFn: fetchAuthCheck,
    staleTime: 60_000,
    refetchInterval: 10 * 60_000,
    refetchOnWindowFocus: true,
    retry: 1,
  });
  const user = query.data?.authenticated ? query.data.user : null;
  return { user, isAdmin: user?.role === 'admin', isLoading: query.isPending, refetch: query.refetch };
}

/** After sign-in or sign-out: the user and everything cached for the previous one (features, orders) are reloaded. */
export function useRefreshAfterAuthChange() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await queryClient.invalidateQueries();
    await queryClient.refetchQueries({ queryKey: authQueryKey });
  }, [queryClient]);
}
