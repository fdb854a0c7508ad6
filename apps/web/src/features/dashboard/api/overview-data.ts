import { isOrderActive, type Order, type OrderUsage } from '@storefront/contract';

export interface OverviewFigures {
  activeIsp: number;
  activePk1: number;
  /** Residential data used, in percent of what was bought; null is 'No Data'. */
  residentialUsagePercent: number | null;
}

/** The Overview cards from the customer's real orders (spec section 2 'Overview'). */
export function overviewFigures(orders: Order[], usage: OrderUsage[], now: Date = new Date()): OverviewFigures {
  const activeProxies = (productId: Order['product_id']) =>
    orders
      .filter((order) => order.product_id === productId && !order.processing && isOrderActive(order, now))
      .reduce((sum, order) => sum + order.proxies.length, 0);
  const total = usage.reduce((sum, entry) => sum + entry.totalInKb, 0);
  const used = usage.reduce((sum, entry) => sum + entry.usedInKb, 0);
  return {
    activeIsp: activeProxies('isp_proxies'),
    activePk1: activeProxies('pk1_isp_proxies'),
    residentialUsagePercent: total > 0 ? Math.min(100, (used / total) * 100) : null,
  };
}
