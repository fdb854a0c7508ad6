import { type CreateCouponRequest, couponMessages } from '@storefront/contract';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { auditKeys, couponKeys } from './admin-keys.ts';

export function useAdminCoupons() {
  return useQuery({
    queryKey: couponKeys.list(),
    queryFn: ({ signal }) => callApi('listCoupons', { fallbackMessage: couponMessages.fetchFailed, signal }),
  });
}

/** The products and durations a coupon can apply to: fixed, so kept for five minutes and never invalidated. */
export function useCouponOptions() {
  return useQuery({
    queryKey: couponKeys.options(),
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) =>
      callApi('getCouponOptions', {
        fallbackMessage: couponMessages.fetchOptionsFailed,
        signal,
      }),
  });
}

export function useCouponRedemptions(before?: string) {
  return useQuery({
    queryKey: couponKeys.redemptions(before),
    queryFn: ({ signal }) =>
      callApi('listCouponRedemptions', {
        query: before ? { before } : {},
        fallbackMessage: couponMessages.fetchRedemptionsFailed,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** One code's customers, a page at a time as the administrator asks for more. */
export function useRedemptionEmails(promoCodeId: string) {
  return useInfiniteQuery({
    queryKey: couponKeys.redemptionEmails(promoCodeId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi('listRedemptionEmails', {
        params: { promoCodeId },
        query: pageParam ? { after: pageParam } : {},
        fallbackMessage: couponMessages.fetchRedemptionsFailed,
        signal,
      }),
    getNextPageParam: (page) => page.next ?? undefined,
  });
}

/** Spec section 7: on success the coupons are reloaded (the list, and the redemptions' count of coupons). */
function useCouponChange<T>(run: (input: T) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: couponKeys.list() });
      void queryClient.invalidateQueries({ queryKey: couponKeys.redemptions() });
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
    },
  });
}

export const useCreateCoupon = () =>
  useCouponChange((payload: CreateCouponRequest) =>
    callApi('createCoupon', {
      body: payload,
      fallbackMessage: couponMessages.createFailed,
    }),
  );

export const useToggleCoupon = () =>
  useCouponChange(({ promoCodeId, active }: { promoCodeId: string; active: boolean }) =>
    callApi('togglePromoCode', {
      params: { promoCodeId },
      body: { active },
      fallbackMessage: couponMessages.toggleFailed,
    }),
  );

export const useDeleteCoupon = () =>
  useCouponChange((couponId: string) =>
    callApi('deleteCoupon', {
      params: { couponId },
      fallbackMessage: couponMessages.deleteFailed,
    }),
  );
