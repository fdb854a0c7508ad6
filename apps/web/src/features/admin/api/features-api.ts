import { adminMessages, type FeatureFlag } from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { featuresKeys } from '../../../lib/queries/features.ts';
import { auditKeys } from './admin-keys.ts';

export function useAdminFeatures() {
  return useQuery({
    queryKey: featuresKeys.admin(),
    queryFn: ({ signal }) =>
      callApi('listFeatureFlags', { fallbackMessage: adminMessages.fetchFeaturesFailed, signal }),
  });
}

/** Spec section 4 'Feature toggle': the whole list is sent; on failure the list is reloaded. */
export function useSaveFeatures() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (features: FeatureFlag[]) =>
      callApi('saveFeatureFlags', {
        body: features,
        fallbackMessage: adminMessages.toggleFailed,
      }),
    onSuccess: (features) => {
      queryClient.setQueryData(featuresKeys.admin(), features);
      // The same flags, as customers read them (the purchase page).
      void queryClient.invalidateQueries({ queryKey: featuresKeys.public() });
      void queryClient.invalidateQueries({ queryKey: auditKeys.all });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: featuresKeys.admin() }),
  });
}
