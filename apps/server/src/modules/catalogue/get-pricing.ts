import type { PricingPlan, ProductId } from '@storefront/contract';
import { PRODUCT_IDS } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { products, proxyIpCounts, residentialPool } from '../../db/schema.ts';

/** Live stock per product: available IPs (not assigned, not burnt; the kept counts) or whole GB left in the residential pool. */
export async function getStock(db: Db | Tx): Promise<Record<ProductId, number>> {
  const [ipCounts, pool] = await Promise.all([
    db.select({ productId: proxyIpCounts.productId, available: proxyIpCounts.available }).from(proxyIpCounts),
    db.select().from(residentialPool).where(eq(residentialPool.id, 1)),
  ]);
  const ips = new Map(ipCounts.map((row) => [row.productId, Number(row.available)]));
  const availableMb = pool[0] ? Math.max(0, pool[0].bandwidthLimitMb - pool[0].bandwidthUsedMb) : 0;
  return {
    isp_proxies: ips.get('isp_proxies') ?? 0,
    pk1_isp_proxies: ips.get('pk1_isp_proxies') ?? 0,
    residential_proxies: Math.floor(availableMb / 1000),
  };
}

/** The plans of `GET /api/pricing`: one per product, price in dollars, live stock. */
export async function getPricing({ db }: { db: Db }): Promise<PricingPlan[]> {
  const [catalogue, stock] = await Promise.all([db.select().from(products), getStock(db)]);
  const byId = new Map(catalogue.map((product) => [product.id, product]));
  return PRODUCT_IDS.flatMap((id) => {
    const product = byId.get(id);
    if (!product) return [];
    return [{ id, name: product.name, price: product.unitPriceCents / 100, stock: stock[id] }];
  });
}
