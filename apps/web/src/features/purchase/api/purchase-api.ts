import { type CheckoutRequest, checkoutMessages, messages } from '@storefront/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { featuresKeys } from '../../../lib/queries/features.ts';

/** Which products can be bought now. */
export function useFeatures() {
  return useQuery({
    queryKey: featuresKeys.public(),
    queryFn: ({ signal }) => callApi('listFeatures', { fallbackMessage: messages.internalError, signal }),
  });
}

/** The payment page URL, or an ApiError with the server's message. */
export async function startCheckout(request: CheckoutRequest): Promise<string> {
  const answer = await callApi('createCheckout', {
    body: request,
    fallbackMessage: checkoutMessages.checkoutFallback,
  });
  if (!answer.success) throw new ApiError(200, answer.error.message || checkoutMessages.checkoutFallback);
  return answer.checkoutUrl;
}

export const useStartCheckout = () => useMutation({ mutationFn: startCheckout });
