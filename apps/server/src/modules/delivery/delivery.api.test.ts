import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, proxyIps } from '../../db/schema.ts';
import { paidEvent, testBrand, testPool } from '../../test/payments.ts';
import { createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { handlePaymentEvent } from '../billing/handle-event.ts';

describe('delivery of paid orders in parallel', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: 'false', AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => t.close());

  it('50 paid orders of 5 IPs against a pool of 100: exactly 20 delivered, 30 processing, no IP held twice', async () => {
    const db = t.database.db;
    const customer = await signUpCustomer(t, 'parallel@example.com');
    await db.insert(proxyIps).values(testPool(100));
    const created = await db
      .insert(orders)
      .values(
        Array.from({ length: 50 }, () => ({
          userId: customer.id,
          productId: 'isp_proxies' as const,
          quantity: 5,
          totalCents: 1250,
        })),
      )
      .returning({ id: orders.id });

    const outcomes = await Promise.all(
      created.map((order) =>
        handlePaymentEvent({ db, provider: 'sandbox', event: paidEvent(order.id), brand: testBrand }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'delivered')).toHaveLength(20);
    expect(outcomes.filter((outcome) => outcome === 'processing')).toHaveLength(30);

    const assigned = await db.select().from(proxyIps).where(isNotNull(proxyIps.assignedOrderId));
    expect(assigned).toHaveLength(100);
    const perOrder = new Map<string, number>();
    for (const ip of assigned)
      perOrder.set(ip.assignedOrderId ?? '', (perOrder.get(ip.assignedOrderId ?? '') ?? 0) + 1);
    expect([...perOrder.values()].every((count) => count === 5)).toBe(true);
    expect(perOrder.size).toBe(20);
    const processing = await db.select().from(orders).where(eq(orders.status, 'processing'));
    expect(processing.every((order) => !perOrder.has(order.id))).toBe(true);
  });
});
