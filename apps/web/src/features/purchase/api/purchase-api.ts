import {
  type CheckoutRequest,
  type CheckoutResponse,
  checkoutMessages,
  type FeatureFlag,
  messages,
} from '@storefront/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { featuresKeys } from '../../../lib/queries/features.ts';

/** GET /api/features: which products can be bought now. */
export function useFeatures() {
  return useQuery({
    queryKey: featuresKeys.public(),
    queryFn: ({ signal }) =>
      apiRequest<FeatureFlag[]>('/features', { fallbackMessage: messages.internalError, signal }),
  });
}

/** POST /api/checkout: the payment page URL, or an ApiError with the server's message. */
export async function startCheckout(request: CheckoutRequest): Promise<string> {
  const answer = await apiRequest<CheckoutResponse>('/checkout', {
    method: 'POST',
    body: request,
    fallbackMessage: checkoutMessages.checkoutFallback,
  });
  if (!answer.success) throw new ApiError(200, answer.error.message || checkoutMessages.checkoutFallback);
  return answer.checkoutUrl;
}

export const useStartCheckout = () => useMutation({ mutationFn: startCheckout });
