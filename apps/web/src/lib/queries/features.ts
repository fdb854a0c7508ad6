/**
 * The query keys of the feature flags: what customers read (`GET /api/features`, the purchase page) and what the
 * administrators' toggle reads and saves (`/api/admin/features`). Shared, because saving the flags changes both.
 */
export const featuresKeys = {
  all: ['features'] as const,
  public: () => [...featuresKeys.all, 'public'] as const,
  admin: () => [...featuresKeys.all, 'admin'] as const,
};
