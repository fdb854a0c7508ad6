import { adminMessages, type BodyOf, type Endpoints, type IpPool, type SubnetFilters } from '@storefront/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { alertsKeys, auditKeys, inventoryKeys } from './admin-keys.ts';

export const poolName = (pool: IpPool) => (pool === 'pk1' ? 'PK1' : 'Elite ISP');

/** GET /api/admin/stocks/residential/daily: what the gateway carried for all customers per day. */
/** The customers who used the most residential data this month. */
export function useTopResidentialCustomers() {
  return useQuery({
    queryKey: inventoryKeys.residentialTop(),
    queryFn: ({ signal }) =>
      callApi('listTopResidentialCustomers', { fallbackMessage: adminMessages.fetchResidentialFailed, signal }),
  });
}

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

/** A pool's stock with a page of its burnt IPs (the first, or the one after `after`). */
export function useIpStock(pool: IpPool, after?: string) {
  return useQuery({
    queryKey: inventoryKeys.stockPage(pool, after),
    queryFn: ({ signal }) =>
      callApi('getIpStock', {
        params: { pool },
        query: after ? { after } : {},
        fallbackMessage: pool === 'pk1' ? adminMessages.fetchPk1Failed : 'Failed to fetch Elite ISP stocks',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Every burnt IP of a pool, a line each: what Copy All copies. */
export async function fetchBurntIps(pool: IpPool): Promise<string> {
  const response = await fetch(burntIpsAddress(pool), { credentials: 'same-origin' });
  if (!response.ok) throw new Error(pool === 'pk1' ? adminMessages.fetchPk1Failed : 'Failed to fetch Elite ISP stocks');
  return response.text();
}

export const burntIpsAddress = (pool: IpPool) => `/api/admin/stocks/${pool}/burnt.txt`;

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

/** A page of the subnets matching the filters, with their counts; a card loads its IPs when it opens (useSubnetIps). */
export function useSubnets(pool: IpPool, filters: SubnetFilters, after: string | undefined) {
  return useQuery({
    queryKey: inventoryKeys.subnetPage(pool, filters, after),
    queryFn: ({ signal }) =>
      callApi('listSubnets', {
        params: { pool },
        query: { ...filters, ...(after && { after }) },
        fallbackMessage: pool === 'pk1' ? adminMessages.fetchSubnetsFailed : 'Failed to fetch Elite ISP subnets',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Customers' replacements in a pool: by reason, and a page of subnets, the most flagged as blocked first. */
export function useReplacementStats(pool: IpPool, after: string | undefined) {
  return useQuery({
    queryKey: inventoryKeys.replacements(pool, after),
    queryFn: ({ signal }) =>
      callApi('listReplacementStats', {
        params: { pool },
        query: after ? { after } : {},
        fallbackMessage: 'Failed to fetch the replacements',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

const subnetIps = (pool: IpPool, subnet: string, filters: SubnetFilters) => ({
  queryKey: inventoryKeys.subnet(pool, subnet, filters),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    callApi('listSubnets', {
      params: { pool },
      query: {
        subnet,
        ...(filters.state && { state: filters.state }),
        ...(filters.customer && { customer: filters.customer }),
      },
      fallbackMessage: `Failed to fetch the IPs of ${subnet}`,
      signal,
    }).then((data) => data.subnets[0]?.ips ?? []),
});

/** One subnet's IPs, those matching the state and customer filters when they are on. */
export function useSubnetIps(pool: IpPool, subnet: string, filters: SubnetFilters, enabled: boolean) {
  return useQuery({ ...subnetIps(pool, subnet, filters), enabled });
}

/** Every IP of a subnet, whatever the filters: what Download Endpoints writes. */
export function useAllSubnetIps(pool: IpPool) {
  const queryClient = useQueryClient();
  return (subnet: string) => queryClient.fetchQuery(subnetIps(pool, subnet, {}));
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
