import { adminMessages, type BodyOf, type Endpoints, type IpPool } from '@storefront/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { alertsKeys, auditKeys, inventoryKeys } from './admin-keys.ts';

export const poolName = (pool: IpPool) => (pool === 'pk1' ? 'PK1' : 'Elite ISP');

/** GET /api/admin/stocks/residential/daily: what the gateway carried for all customers per day. */
export function useResidentialDailyUsage() {
  return useQuery({
    queryKey: inventoryKeys.residentialDaily(),
    queryFn: ({ signal }) =>
      callApi('getResidentialDailyUsage', {
        fallbackMessage: adminMessages.fetchResidentialFailed,
        signal,
      }),
  });
}

export function useResidentialStock() {
  return useQuery({
    queryKey: inventoryKeys.residential(),
    queryFn: ({ signal }) =>
      callApi('getResidentialStock', {
        fallbackMessage: adminMessages.fetchResidentialFailed,
        signal,
      }),
  });
}

export function useSetResidentialLimit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bandwidthLimit: number) =>
      callApi('setResidentialLimit', {
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
      callApi('getIpStock', {
        params: { pool },
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
      callApi('uploadIps', {
        params: { pool },
        body: { ips },
        fallbackMessage: pool === 'pk1' ? adminMessages.uploadFailed : 'Failed to upload Elite ISP IPs',
      }),
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
      callApi('listSubnets', {
        params: { pool },
        query: { ips: 'false' },
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
      callApi('listSubnets', {
        params: { pool },
        query: { subnet },
        fallbackMessage: `Failed to fetch the IPs of ${subnet}`,
        signal,
      }).then((data) => data.subnets[0]?.ips ?? []),
  });
}

/** Spec section 4: after a swap the subnets are reloaded. */
export function useSwapSubnet(pool: IpPool) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BodyOf<Endpoints['swapSubnet']>) =>
      callApi('swapSubnet', {
        params: { pool },
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
