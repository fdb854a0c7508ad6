import { messages, type PricingPlan, type PricingResponse } from '@storefront/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, callApi } from '../api-client.ts';

/**
 * A structural check instead of the contract's zod schema: the landing page loads this, and zod would weigh more than
 * the rest of its JavaScript. The shape is the contract's `PricingResponse`.
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

/** The answer of `GET /api/pricing` when it has the contract's shape, else undefined. */
export function parsePricing(value: unknown): PricingResponse | undefined {
  const body = value as Partial<PricingResponse> | null;
  if (typeof body !== 'object' || body === null) return undefined;
  if (body.success !== true || !Array.isArray(body.plans) || !body.plans.every(isPlan)) return undefined;
  return { success: true, plans: body.plans, message: typeof body.message === 'string' ? body.message : '' };
}

export async function getPricing(signal?: AbortSignal): Promise<PricingResponse> {
  // Checked here rather than trusted: a proxy or a half-deployed server may answer 200 with something else.
  const body: Partial<PricingResponse> = await callApi('getPricing', {
    fallbackMessage: messages.pricingFetchFailed,
    signal,
  });
  const pricing = parsePricing(body);
  if (!pricing) {
    throw new ApiError(
      200,
      typeof body.message === 'string' && body.message ? body.message : messages.pricingFetchFailed,
    );
  }
  return pricing;
}

/** The query keys of the public price list (one answer today; a factory like every feature's). */
export const pricingKeys = {
  all: ['pricing'] as const,
};

/** The key the server-rendered page's state is put under (app/server-state.ts). */
export const pricingQueryKey = pricingKeys.all;

export const pricingQueryOptions = () =>
  queryOptions({ queryKey: pricingKeys.all, queryFn: ({ signal }) => getPricing(signal) });

export const usePricing = () => useQuery(pricingQueryOptions());
