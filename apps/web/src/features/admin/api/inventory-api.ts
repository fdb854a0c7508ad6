import {
  adminMessages,
  type DailyUsage,
  type IpPool,
  type IpStock,
  type ResidentialStock,
  type SubnetsData,
} from '@storefront/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { alertsKeys, auditKeys, inventoryKeys } from './admin-keys.ts';

export const poolName = (pool: IpPool) => (pool === 'pk1' ? 'PK1' : 'Elite ISP');

/** GET /api/admin/stocks/residential/daily: what the gateway carried for all customers per day. */
export function useResidentialDailyUsage() {
  return useQuery({
    queryKey: inventoryKeys.residentialDaily(),
    queryFn: ({ signal }) =>
      apiRequest<DailyUsage>('/admin/stocks/residential/daily', {
        fallbackMessage: adminMessages.fetchResidentialFailed,
        signal,
      }),
  });
}

export function useResidentialStock() {
  return useQuery({
    queryKey: inventoryKeys.residential(),
    queryFn: ({ signal }) =>
      apiRequest<ResidentialStock>('/admin/stocks/residential', {
        fallbackMessage: adminMessages.fetchResidentialFailed,
        signal,
      }),
  });
}

export function useSetResidentialLimit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bandwidthLimit: number) =>
      apiRequest<ResidentialStock & { message: string; delivered: number }>('/admin/stocks/residential', {
        method: 'PUT',
        body: { bandwidthLimit },
        fallbackMessage: 'Failed to set the residential pool',
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: inventoryKeys.residential() });
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
      // New stock can resolve an open 'out of stock' alert.
      void queryClient.invalidateQueries({ queryKey: alertsKeys.all });
    },
  });
}

export function useIpStock(pool: IpPool) {
  return useQuery({
    queryKey: inventoryKeys.stock(pool),
    queryFn: ({ signal }) =>
      apiRequest<IpStock>(`/admin/stocks/${pool}`, {
        fallbackMessage: pool === 'pk1' ? adminMessages.fetchPk1Failed : 'Failed to fetch Elite ISP stocks',
        signal,
      }),
  });
}

/** Spec section 4: after an upload the stocks are reloaded. */
export function useUploadIps(pool: IpPool) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ips: string[]) =>
      apiRequest<{ message: string; added: number; skipped: number; delivered: number }>(
        `/admin/stocks/${pool}/upload`,
        {
          method: 'POST',
          body: { ips },
          fallbackMessage: pool === 'pk1' ? adminMessages.uploadFailed : 'Failed to upload Elite ISP IPs',
        },
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: inventoryKeys.stock(pool) });
      void queryClient.invalidateQueries({ queryKey: inventoryKeys.subnets(pool) });
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
      // New stock can resolve an open 'out of stock' alert.
      void queryClient.invalidateQueries({ queryKey: alertsKeys.all });
    },
  });
}

/** The subnets' counts only; a card loads its IPs when it opens (useSubnetIps). */
export function useSubnets(pool: IpPool) {
  return useQuery({
    queryKey: inventoryKeys.subnets(pool),
    queryFn: ({ signal }) =>
      apiRequest<SubnetsData>(`/admin/ips/${pool}/subnets?ips=false`, {
        fallbackMessage: pool === 'pk1' ? adminMessages.fetchSubnetsFailed : 'Failed to fetch Elite ISP subnets',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useSubnetIps(pool: IpPool, subnet: string, enabled: boolean) {
  return useQuery({
    queryKey: inventoryKeys.subnet(pool, subnet),
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<SubnetsData>(`/admin/ips/${pool}/subnets?subnet=${encodeURIComponent(subnet)}`, {
        fallbackMessage: `Failed to fetch the IPs of ${subnet}`,
        signal,
      }).then((data) => data.subnets[0]?.ips ?? []),
  });
}

/** Spec section 4: after a swap the subnets are reloaded. */
export function useSwapSubnet(pool: IpPool) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { subnet: string; newEndpoints: string[] }) =>
      apiRequest<{ message: string; swapped: number; delivered: number }>(`/admin/ips/${pool}/subnets/swap`, {
        method: 'POST',
        body: input,
        fallbackMessage: adminMessages.swapFailed,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: inventoryKeys.subnets(pool) });
      void queryClient.invalidateQueries({ queryKey: inventoryKeys.stock(pool) });
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
    },
  });
}
