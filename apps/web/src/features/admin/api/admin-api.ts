import type { SandboxClockReport } from '@storefront/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/admin/sandbox/clock (administrators). */
export function useMoveSandboxClock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (now: string) =>
      apiRequest<SandboxClockReport>('/admin/sandbox/clock', {
        method: 'POST',
        body: { now },
        fallbackMessage: 'The sandbox clock could not be moved.',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['orders'] }),
  });
}
