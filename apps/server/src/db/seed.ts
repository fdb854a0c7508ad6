import { randomBytes, randomInt } from 'node:crypto';
import { PRODUCT_IDS, PRODUCTS, type ProductId, proxyAddress, proxyLine } from '@storefront/contract';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db, Tx } from './client.ts';
import { couponProducts, coupons, featureFlags, products, promoCodes, proxyIps, residentialPool } from './schema.ts';

/** Demo IPs come only from the documentation ranges (RFC 5737), so no real address is ever handed out. */
export const DEMO_SUBNETS: Record<'isp_proxies' | 'pk1_isp_proxies', string[]> = {
  isp_proxies: ['192.0.2', '198.51.100'],
  pk1_isp_proxies: ['203.0.113'],
};
/** The demo promo code: 10 percent off the first payment of every product. */
export const DEMO_COUPON = {
  code: 'WELCOME10',
  name: 'Welcome: 10% off',
  duration: 'once',
  percentOff: 10,
  productIds: [...PRODUCT_IDS],
} as const;

/** 500 GB of residential data in the demo pool. */
export const DEMO_RESIDENTIAL_LIMIT_MB = 500_000;

export interface SeedResult {
  seeded: boolean;
  demoIps: number;
}

/**
 * Keeps the catalogue in line with the configuration, and on a new database (no products yet) adds the feature flags
 * (all enabled), the residential pool and, unless SEED_DEMO=false, the demo inventory. One transaction.
 */
export async function seedDatabase(db: Db, config: Pick<Config, 'pricesCents' | 'seedDemo'>): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    // Serialises concurrent first starts of several instances on one database.
    await tx.execute(sql`lock table ${products} in share row exclusive mode`);
    const existing = await tx.select({ id: products.id }).from(products);
    const isNew = existing.length === 0;

    for (const id of PRODUCT_IDS) {
      const product = PRODUCTS[id];
      await tx
        .insert(products)
        .values({ id, name: product.label, unit: product.unit, unitPriceCents: config.pricesCents[id] })
        .onConflictDoUpdate({
          target: products.id,
          set: { name: product.label, unit: product.unit, unitPriceCents: config.pricesCents[id] },
        });
    }
    if (!isNew) return { seeded: false, demoIps: 0 };

    await tx.insert(featureFlags).values(PRODUCT_IDS.map((featureName) => ({ featureName, isEnabled: true })));
    await tx
      .insert(residentialPool)
      .values({ id: 1, bandwidthLimitMb: config.seedDemo ? DEMO_RESIDENTIAL_LIMIT_MB : 0 })
      .onConflictDoNothing();

    let demoIps = 0;
    if (config.seedDemo) {
      for (const productId of ['isp_proxies', 'pk1_isp_proxies'] as const) {
        const rows = DEMO_SUBNETS[productId].flatMap((prefix) => demoSubnet(productId, prefix));
        await tx.insert(proxyIps).values(rows).onConflictDoNothing();
        demoIps += rows.length;
      }
      await insertDemoCoupon(tx);
    }
    return { seeded: true, demoIps };
  });
}

/**
 * The demo coupon and its code, written as the coupons module writes an administrator's (modules/coupons/coupons.ts's
 * createCoupon): the seed writes its rows itself, as it does the catalogue's, and imports no module.
 */
async function insertDemoCoupon(tx: Tx): Promise<void> {
  const { code, name, duration, percentOff, productIds } = DEMO_COUPON;
  const [coupon] = await tx.insert(coupons).values({ name, duration, percentOff }).returning({ id: coupons.id });
  if (!coupon) throw new Error('coupon insert returned nothing');
  await tx.insert(couponProducts).values(productIds.map((productId) => ({ couponId: coupon.id, productId })));
  await tx.insert(promoCodes).values({ couponId: coupon.id, code });
}

function demoSubnet(productId: ProductId, prefix: string) {
  return Array.from({ length: 254 }, (_, index) => {
    const ip = `${prefix}.${index + 1}`;
    const port = 10_000 + randomInt(50_000);
    const username = `demo${randomBytes(3).toString('hex')}`;
    const password = randomBytes(9).toString('base64url');
    return {
      productId,
      ip,
      port,
      username,
      password,
      endpoint: proxyLine(proxyAddress(ip, port), username, password),
      subnet: `${prefix}.0/24`,
    };
  });
}
