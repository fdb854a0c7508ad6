/** The catalogue of spec section 1: identifiers, labels and the defaults of section 9. */
export const PRODUCT_IDS = ['isp_proxies', 'pk1_isp_proxies', 'residential_proxies'] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];

export type ProductUnit = 'ip_month' | 'gb';

export interface ProductInfo {
  id: ProductId;
  label: string;
  description: string;
  unit: ProductUnit;
  /** Unit price in US dollars when no plan is known (spec section 9). */
  defaultPrice: number;
  bundles: readonly number[];
  allowsCustomAmount: boolean;
}

export const PRODUCTS: Record<ProductId, ProductInfo> = {
  isp_proxies: {
    id: 'isp_proxies',
    label: 'Elite ISP Proxies',
    description: 'Static dedicated IPs, 1 dedicated IP each',
    unit: 'ip_month',
    defaultPrice: 2.5,
    bundles: [5, 10, 50, 100, 200, 300, 500],
    allowsCustomAmount: true,
  },
  pk1_isp_proxies: {
    id: 'pk1_isp_proxies',
    label: 'PK1 ISP Proxies',
    description: 'Retailer-optimised static IPs, 1 dedicated IP each',
    unit: 'ip_month',
    defaultPrice: 2.5,
    bundles: [5, 25, 50, 75, 100, 150, 200],
    allowsCustomAmount: false,
  },
  residential_proxies: {
    id: 'residential_proxies',
    label: 'Residential Proxies',
    description: 'Rotating real residential IPs, pay as you use, no expiry',
    unit: 'gb',
    defaultPrice: 5,
    bundles: [2, 5, 10, 30, 50, 100],
    allowsCustomAmount: true,
  },
};

export const CUSTOM_AMOUNT_MIN = 1;
export const CUSTOM_AMOUNT_MAX = 10_000;

export function isProductId(value: unknown): value is ProductId {
  return typeof value === 'string' && (PRODUCT_IDS as readonly string[]).includes(value);
}

/**
 * Spec section 3: a plan is matched to a product by its name. 'pk1' (or the PK1 id) wins over 'isp',
 * so 'PK1 ISP Proxies' is PK1 and never Elite ISP.
 */
export function productOfPlanName(name: string): ProductId | undefined {
  const lower = name.toLowerCase();
  if (lower.includes('pk1') || lower === 'pk1_isp_proxies') return 'pk1_isp_proxies';
  if (lower.includes('isp')) return 'isp_proxies';
  if (lower.includes('residential')) return 'residential_proxies';
  return undefined;
}

const plainNumber = new Intl.NumberFormat('en-US');

/** The plan of a product among the served plans, matched by name as spec section 3 says (or by id). */
export function planForProduct<T extends { id: string; name: string }>(plans: readonly T[], productId: ProductId) {
  return (
    plans.find((plan) => plan.id === productId) ?? plans.find((plan) => productOfPlanName(plan.name) === productId)
  );
}

/** How a unit price reads: "per IP / month" or "per GB". */
export function unitLabel(productId: ProductId): string {
  return PRODUCTS[productId].unit === 'gb' ? 'per GB' : 'per IP / month';
}

/** How live stock reads on the storefront. */
export function stockLabel(productId: ProductId, stock: number): string {
  if (stock <= 0) return 'Restocking: new orders are delivered within 24 hours';
  const amount = plainNumber.format(stock);
  return PRODUCTS[productId].unit === 'gb' ? `${amount} GB available` : `${amount} IPs in stock`;
}
