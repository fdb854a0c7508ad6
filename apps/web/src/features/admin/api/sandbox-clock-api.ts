import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { ordersKeys } from '../../../lib/queries/orders.ts';
import { alertsKeys, auditKeys, customOrderKeys, inventoryKeys } from './admin-keys.ts';

/** POST /api/admin/sandbox/clock (administrators). */
export function useMoveSandboxClock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (now: string) =>
      callApi('moveSandboxClock', {
        body: { now },
        fallbackMessage: 'The sandbox clock could not be moved.',
      }),
    // The periodic job ran: renewals, expiries (their IPs back in stock) and removed checkouts change orders,
    // the inventory, customers' custom orders, the alerts and the audit log; coupons and feature flags stay.
    onSuccess: () => {
      for (const queryKey of [ordersKeys.all, inventoryKeys.all, customOrderKeys.all, alertsKeys.all, auditKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
