import { messages, type PricingPlan, type PricingResponse } from '@storefront/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';

/**
 * A structural check instead of the contract's zod schema: the landing page loads this, and zod would add
 * ~50 KB gzipped to its JavaScript. The shape is the contract's `PricingResponse`.
 */
function isPlan(value: unknown): value is PricingPlan {
  const plan = value as PricingPlan;
  return (
    typeof plan === 'object' &&
    plan !== null &&
    typeof plan.id === 'string' &&
    typeof plan.name === 'string' &&
    typeof plan.price === 'number' &&
    typeof plan.stock === 'number'
  );
}

export async function getPricing(signal?: AbortSignal): Promise<PricingResponse> {
  const body = await apiRequest<Partial<PricingResponse>>('/pricing', {
    fallbackMessage: messages.pricingFetchFailed,
    signal,
  });
  if (body.success !== true || !Array.isArray(body.plans) || !body.plans.every(isPlan)) {
    throw new ApiError(
      200,
      typeof body.message === 'string' && body.message ? body.message : messages.pricingFetchFailed,
    );
  }
  return { success: true, plans: body.plans, message: body.message ?? '' };
}

export const pricingQueryOptions = () =>
  queryOptions({ queryKey: ['pricing'], queryFn: ({ signal }) => getPricing(signal) });

export const usePricing = () => useQuery(pricingQueryOptions());
