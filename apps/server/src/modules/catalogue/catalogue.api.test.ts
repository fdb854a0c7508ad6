import { featureListSchema, pricingResponseSchema } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyIps, residentialPool } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('catalogue API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PRICE_ISP_PROXIES: '3.25' });
  });
  afterAll(() => t.close());

  it('GET /api/pricing answers the three plans with configured prices and live demo stock, without sign-in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/pricing' });
    expect(response.statusCode).toBe(200);
    const body = pricingResponseSchema.parse(response.json());
    expect(body.success).toBe(true);
    expect(body.plans).toEqual([
      { id: 'isp_proxies', name: 'Elite ISP Proxies', price: 3.25, stock: 508 },
      { id: 'pk1_isp_proxies', name: 'PK1 ISP Proxies', price: 2.5, stock: 254 },
      { id: 'residential_proxies', name: 'Residential Proxies', price: 5, stock: 500 },
    ]);
  });

  it('stock counts only IPs that are neither assigned nor burnt, and GB left in the residential pool', async () => {
    const isp = await t.database.db.select().from(proxyIps).where(eq(proxyIps.productId, 'isp_proxies')).limit(3);
    await t.database.db.update(proxyIps).set({ needRotated: true }).where(eq(proxyIps.id, isp[0]!.id));
    await t.database.db
      .update(proxyIps)
      .set({ assignedOrderId: '00000000-0000-4000-8000-000000000001' })
      .where(eq(proxyIps.id, isp[1]!.id));
    await t.database.db.update(residentialPool).set({ bandwidthUsedMb: 1_500 });

    const body = pricingResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/pricing' })).json());
    expect(body.plans.find((plan) => plan.id === 'isp_proxies')?.stock).toBe(506);
    expect(body.plans.find((plan) => plan.id === 'residential_proxies')?.stock).toBe(498);
  });

  it('GET /api/pricing carries an ETag, answers 304 to a client that holds it, and a new one when stock changes', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/pricing' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const again = await t.app.inject({ method: 'GET', url: '/api/pricing', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await t.database.db.update(residentialPool).set({ bandwidthUsedMb: 9_000 });
    const changed = await t.app.inject({ method: 'GET', url: '/api/pricing', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('GET /api/features answers one enabled flag per product', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/features' });
    expect(response.statusCode).toBe(200);
    expect(featureListSchema.parse(response.json())).toEqual([
      { featureName: 'isp_proxies', isEnabled: true },
      { featureName: 'pk1_isp_proxies', isEnabled: true },
      { featureName: 'residential_proxies', isEnabled: true },
    ]);
  });

  it('demo IPs come only from the documentation ranges', async () => {
    const rows = await t.database.db.select({ ip: proxyIps.ip, endpoint: proxyIps.endpoint }).from(proxyIps);
    expect(rows.length).toBe(762);
    for (const row of rows) {
      expect(row.ip).toMatch(/^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}$/);
      expect(row.endpoint.startsWith(`${row.ip}:`)).toBe(true);
    }
  });
});

describe('seeding', () => {
  it('SEED_DEMO=false seeds the catalogue and flags but no inventory', async () => {
    const t = await createTestApp({ SEED_DEMO: 'false' });
    try {
      const body = pricingResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/pricing' })).json());
      expect(body.plans.map((plan) => plan.stock)).toEqual([0, 0, 0]);
      const features = featureListSchema.parse((await t.app.inject({ method: 'GET', url: '/api/features' })).json());
      expect(features).toHaveLength(3);
    } finally {
      await t.close();
    }
  });
});
