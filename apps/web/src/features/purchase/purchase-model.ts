import {
  CUSTOM_AMOUNT_MAX,
  CUSTOM_AMOUNT_MIN,
  type FeatureFlag,
  PRODUCTS,
  type PricingPlan,
  type ProductId,
  planForProduct,
} from '@storefront/contract';

export type BundleChoice = number | 'custom';

/** Spec section 5: bundles larger than the available stock are hidden; the custom bundle always stays. */
export function visibleBundles(productId: ProductId, stock: number | undefined): BundleChoice[] {
  const product = PRODUCTS[productId];
  const bundles: BundleChoice[] = product.bundles.filter((size) => stock === undefined || size <= stock);
  return product.allowsCustomAmount ? [...bundles, 'custom'] : bundles;
}

/** Spec section 5: a custom amount is 1 to 10000; a value that is not a number becomes 1. */
export function parseCustomAmount(value: string | number): number {
  const number = typeof value === 'number' ? value : Number.parseFloat(value);
  if (!Number.isFinite(number)) return CUSTOM_AMOUNT_MIN;
  return Math.min(CUSTOM_AMOUNT_MAX, Math.max(CUSTOM_AMOUNT_MIN, Math.round(number)));
}

/** Whether the custom amount field holds an amount that can be bought as it is: a whole number from 1 to 10000. */
export function isCustomAmount(value: string | number): boolean {
  const number = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
  return Number.isInteger(number) && number >= CUSTOM_AMOUNT_MIN && number <= CUSTOM_AMOUNT_MAX;
}

export interface ProductOffer {
  productId: ProductId;
  /** Unit price in dollars: the plan's, or the spec's default when no plan is served. */
  price: number;
  /** Live stock (IPs or GB), unknown while pricing has not loaded or failed. */
  stock: number | undefined;
  enabled: boolean;
  /** ISP and PK1 cannot be bought without their price; residential always shows $5/GB. */
  pricingError: boolean;
}

/** What each product card shows and allows, from pricing, its error, and the feature flags. */
export function productOffer(
  productId: ProductId,
  plans: readonly PricingPlan[] | undefined,
  pricingFailed: boolean,
  features: readonly FeatureFlag[] | undefined,
): ProductOffer {
  const plan = plans ? planForProduct(plans, productId) : undefined;
  const residential = PRODUCTS[productId].unit === 'gb';
  const flag = features?.find((feature) => feature.featureName === productId);
  return {
    productId,
    price: residential ? PRODUCTS[productId].defaultPrice : (plan?.price ?? PRODUCTS[productId].defaultPrice),
    stock: plan?.stock,
    enabled: flag?.isEnabled !== false,
    pricingError: pricingFailed && !residential,
  };
}

/** Spec section 9: a bundle costs unit price times quantity. */
export const bundlePrice = (unitPrice: number, quantity: number) => Math.round(unitPrice * quantity * 100) / 100;

/** Spec section 9: 'Orders will be delivered within 24 hours' when the quantity exceeds the known stock. */
export const exceedsStock = (quantity: number, stock: number | undefined) => stock !== undefined && quantity > stock;

/** Spec section 5: the coupon is trimmed and sent only when not empty. */
export function couponToSend(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
