/** The query keys of the Settings page (TanStack Query's key factory): each card's data under `accountKeys.all`. */
export const accountKeys = {
  all: ['account'] as const,
  apiKeys: () => [...accountKeys.all, 'api-keys'] as const,
  authorizedIps: () => [...accountKeys.all, 'authorized-ips'] as const,
  preferences: () => [...accountKeys.all, 'preferences'] as const,
};
