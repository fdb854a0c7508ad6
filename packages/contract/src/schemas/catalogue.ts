// The catalogue's zod schemas (products, pricing, feature flags, health, errors): what the server validates and
// serialises, and the API reference; the web app takes their types only, so its pages load no zod
// (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
import { PRODUCT_IDS } from '../products.ts';

export const productIdSchema = z.enum(PRODUCT_IDS);

/** Spec section 3 'Pricing plan'. `stock` is live: available IPs (ISP, PK1) or available GB (residential). */
export const pricingPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number().nonnegative(),
  stock: z.number().int().nonnegative(),
});
export type PricingPlan = z.infer<typeof pricingPlanSchema>;

export const pricingResponseSchema = z.object({
  success: z.boolean(),
  plans: z.array(pricingPlanSchema),
  message: z.string(),
});
export type PricingResponse = z.infer<typeof pricingResponseSchema>;

/** Spec section 3 'Feature flag'; one flag per product, named after the product id. */
export const featureFlagSchema = z.object({
  featureName: z.string(),
  isEnabled: z.boolean(),
});
export type FeatureFlag = z.infer<typeof featureFlagSchema>;
export const featureListSchema = z.array(featureFlagSchema);

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['up', 'down']),
});

/** A dependency's check in the readiness answer. */
const readinessCheckSchema = z.union([
  z.object({ status: z.literal('ok') }),
  z.object({ status: z.literal('down'), reason: z.string() }),
  z.object({ status: z.literal('not configured') }),
]);

/** GET /api/health/ready: the instance's state and each dependency's. */
export const readinessResponseSchema = z.object({
  status: z.enum(['ready', 'draining', 'unavailable']),
  version: z.string(),
  checks: z.object({
    database: readinessCheckSchema,
    redis: readinessCheckSchema,
    smtp: readinessCheckSchema,
    job: readinessCheckSchema,
    gateway: readinessCheckSchema,
  }),
});

/** Every error the API answers has this shape: a message a person can read. */
export const errorResponseSchema = z.object({ message: z.string() });
