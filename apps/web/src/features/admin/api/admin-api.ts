import {
  type AdminCoupon,
  type AdminUserLookup,
  type AuditLog,
  adminMessages,
  type CouponOptions,
  type CouponRedemption,
  type CreateCouponRequest,
  type CustomOrder,
  couponMessages,
  customOrderMessages,
  type DailyUsage,
  type FeatureFlag,
  type IpPool,
  type IpStock,
  type ResidentialStock,
  type SandboxClockReport,
  type SubnetsData,
} from '@storefront/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

const adminKeys = {
  features: ['admin', 'features'] as const,
  residential: ['admin', 'stocks', 'residential'] as const,
  stock: (pool: IpPool) => ['admin', 'stocks', pool] as const,
  subnets: (pool: IpPool) => ['admin', 'subnets', pool] as const,
  subnet: (pool: IpPool, subnet: string) => ['admin', 'subnets', pool, subnet] as const,
  audit: (page: number) => ['admin', 'audit', page] as const,
};
const poolName = (pool: IpPool) => (pool === 'pk1' ? 'PK1' : 'Elite ISP');

export function useAdminFeatures() {
  return useQuery({
    queryKey: adminKeys.features,
    queryFn: ({ signal }) =>
      apiRequest<FeatureFlag[]>('/admin/features', { fallbackMessage: adminMessages.fetchFeaturesFailed, signal }),
  });
}

/** Spec section 4 'Feature toggle': the whole list is sent; on failure the list is reloaded. */
export function useSaveFeatures() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (features: FeatureFlag[]) =>
      apiRequest<FeatureFlag[]>('/admin/features', {
        method: 'POST',
        body: features,
        fallbackMessage: adminMessages.toggleFailed,
      }),
    onSuccess: (features) => {
      queryClient.setQueryData(adminKeys.features, features);
      void queryClient.invalidateQueries({ queryKey: ['features'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: adminKeys.features }),
  });
}

/** GET /api/admin/stocks/residential/daily: what the gateway carried for all customers per day. */
export function useResidentialDailyUsage() {
  return useQuery({
    queryKey: [...adminKeys.residential, 'daily'],
    queryFn: ({ signal }) =>
      apiRequest<DailyUsage>('/admin/stocks/residential/daily', {
        fallbackMessage: adminMessages.fetchResidentialFailed,
        signal,
      }),
  });
}

export function useResidentialStock() {
  return useQuery({
    queryKey: adminKeys.residential,
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
      void queryClient.invalidateQueries({ queryKey: adminKeys.residential });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
  });
}

export function useIpStock(pool: IpPool) {
  return useQuery({
    queryKey: adminKeys.stock(pool),
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
      void queryClient.invalidateQueries({ queryKey: adminKeys.stock(pool) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.subnets(pool) });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
  });
}

/** The subnets' counts only; a card loads its IPs when it opens (useSubnetIps). */
export function useSubnets(pool: IpPool) {
  return useQuery({
    queryKey: adminKeys.subnets(pool),
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
    queryKey: adminKeys.subnet(pool, subnet),
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
      void queryClient.invalidateQueries({ queryKey: adminKeys.subnets(pool) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stock(pool) });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
  });
}

export function useAuditLog(page: number) {
  return useQuery({
    queryKey: adminKeys.audit(page),
    queryFn: ({ signal }) =>
      apiRequest<AuditLog>(`/admin/audit-log?page=${page}`, {
        fallbackMessage: 'Failed to fetch the audit log',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

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
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}

export { poolName };

/** GET /api/admin/users?email=: the customer and their custom orders (spec section 2 'Custom Ordering'). */
export function useUserLookup(email: string | null) {
  return useQuery({
    queryKey: ['admin', 'user', email],
    enabled: email !== null,
    retry: false,
    queryFn: ({ signal }) =>
      apiRequest<AdminUserLookup>(`/admin/users?email=${encodeURIComponent(email ?? '')}`, {
        fallbackMessage: customOrderMessages.fetchUserFailed,
        signal,
      }),
  });
}

export function useCreateCustomOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; quantity: number; coupon?: string }) =>
      apiRequest<{ checkoutUrl: string }>('/admin/checkout/pk1/custom', {
        method: 'POST',
        body: input,
        fallbackMessage: customOrderMessages.createFailed,
      }),
    // Spec section 4: after creating a custom order the user is looked up again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'user'] }),
  });
}

export function useFulfilCustomOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; orderId: string; ips: string[] }) =>
      apiRequest<{ customOrders: CustomOrder[] }>('/admin/orders/fulfill', {
        method: 'POST',
        body: input,
        fallbackMessage: customOrderMessages.fulfilFailed,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'user'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
  });
}

export function useAdminCoupons() {
  return useQuery({
    queryKey: ['admin', 'coupons'],
    queryFn: ({ signal }) =>
      apiRequest<{ coupons: AdminCoupon[] }>('/admin/coupons', { fallbackMessage: couponMessages.fetchFailed, signal }),
  });
}

export function useCouponOptions() {
  return useQuery({
    queryKey: ['admin', 'coupons', 'options'],
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) =>
      apiRequest<CouponOptions>('/admin/coupons/options', {
        fallbackMessage: couponMessages.fetchOptionsFailed,
        signal,
      }),
  });
}

export function useCouponRedemptions() {
  return useQuery({
    queryKey: ['admin', 'coupons', 'redemptions'],
    queryFn: ({ signal }) =>
      apiRequest<{ coupons: CouponRedemption[]; totalCoupons: number }>('/admin/coupons/redemptions', {
        fallbackMessage: couponMessages.fetchRedemptionsFailed,
        signal,
      }),
  });
}

/** Spec section 7: on success the coupons are reloaded. */
function useCouponChange<T>(run: (input: T) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'coupons'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
  });
}

export const useCreateCoupon = () =>
  useCouponChange((payload: CreateCouponRequest) =>
    apiRequest<{ message: string }>('/admin/coupons', {
      method: 'POST',
      body: payload,
      fallbackMessage: couponMessages.createFailed,
    }),
  );

export const useToggleCoupon = () =>
  useCouponChange(({ promoCodeId, active }: { promoCodeId: string; active: boolean }) =>
    apiRequest<{ message: string }>(`/admin/coupons/${promoCodeId}/toggle`, {
      method: 'PATCH',
      body: { active },
      fallbackMessage: couponMessages.toggleFailed,
    }),
  );

export const useDeleteCoupon = () =>
  useCouponChange((couponId: string) =>
    apiRequest<{ message: string }>(`/admin/coupons/${couponId}`, {
      method: 'DELETE',
      fallbackMessage: couponMessages.deleteFailed,
    }),
  );
