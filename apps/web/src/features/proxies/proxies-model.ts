import { type Order, PRODUCT_IDS, type ProductId } from '@storefront/contract';

export const TAB_ALIASES: Record<string, ProductId> = { residential: 'residential_proxies', pk1: 'pk1_isp_proxies' };

/** The tab of the `tab` query parameter: a product id or an alias; Elite ISP otherwise (spec section 2 'Proxies'). */
export function tabOf(value: string | null): ProductId {
  if (!value) return 'isp_proxies';
  if ((PRODUCT_IDS as readonly string[]).includes(value)) return value as ProductId;
  return TAB_ALIASES[value] ?? 'isp_proxies';
}

/** A product's orders, newest purchase first. */
export function ordersOf(orders: readonly Order[], productId: ProductId): Order[] {
  return orders
    .filter((order) => order.product_id === productId)
    .sort((a, b) => Date.parse(b.purchase_time) - Date.parse(a.purchase_time));
}

/** Spec section 9: 5 (default), 10, 25, plus 'Show all' when the count differs from those. */
export function pageSizeOptions(count: number): { value: string; label: string }[] {
  const options = [5, 10, 25].map((size) => ({ value: String(size), label: String(size) }));
  if (![5, 10, 25].includes(count)) options.push({ value: 'all', label: 'Show all' });
  return options;
}

/** Spec section 9: text viewer of 5 to 15 rows. */
export const viewerRows = (lines: number) => Math.min(15, Math.max(5, lines));

/** Spec section 4 'Usage health': above 80 red, above 60 yellow, otherwise green. */
export function usageColor(percent: number): 'red' | 'yellow' | 'green' {
  if (percent > 80) return 'red';
  if (percent > 60) return 'yellow';
  return 'green';
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "3 days ago", "just now". */
export function relativeAge(iso: string, now: Date = new Date()): string {
  const elapsed = now.getTime() - Date.parse(iso);
  for (const [unit, ms] of UNITS) {
    if (Math.abs(elapsed) >= ms) return relative.format(-Math.round(elapsed / ms), unit);
  }
  return 'just now';
}
