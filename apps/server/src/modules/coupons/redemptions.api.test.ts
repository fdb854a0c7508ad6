import { REDEMPTION_EMAILS_PAGE_SIZE, REDEMPTIONS_PAGE_SIZE } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponRedemptions, coupons, orders, promoCodes } from '../../db/schema.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { recordRedemption } from './coupons.ts';

describe('coupon redemptions, a page at a time', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let carl: { cookie: string; id: string };
  let busyCode = '';
  const get = (url: string, cookie = boss.cookie) => callApi(t, 'GET', url, { cookie });

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'boss@example.com', AUTH_RATE_LIMIT_PER_IP: '1000', SEED_DEMO: 'false' });
    boss = await signUpCustomer(t, 'boss@example.com');
    carl = await signUpCustomer(t, 'carl@example.com');
    const { db } = t.database;
    const [coupon] = await db.insert(coupons).values({ name: 'Bulk', duration: 'once', percentOff: 10 }).returning();
    if (!coupon) throw new Error('no coupon');
    // Codes used 1 to 25 times; the busiest by 130 customers (one twice) whose e-mails need quoting or defusing.
    const codes = await db
      .insert(promoCodes)
      .values(
        Array.from({ length: 25 }, (_, i) => ({
          couponId: coupon.id,
          code: `BULK${i + 1}`,
          timesRedeemed: i + 1,
          customers: 1,
        })),
      )
      .returning();
    const busy = await db
      .insert(promoCodes)
      .values({ couponId: coupon.id, code: 'BUSY', timesRedeemed: 131, customers: 130 })
      .returning();
    busyCode = busy[0]?.id ?? '';
    const uses = [
      ...codes.flatMap((code, i) => Array.from({ length: i + 1 }, () => ({ code: code.id, email: `c${i}@x.test` }))),
      ...Array.from({ length: 130 }, (_, i) => ({ code: busyCode, email: `u${String(i).padStart(3, '0')}@x.test` })),
      { code: busyCode, email: 'u000@x.test' },
    ];
    uses[uses.length - 2] = { code: busyCode, email: '=cmd,"quoted"@x.test' };
    const made = await db
      .insert(orders)
      .values(uses.map(() => ({ userId: carl.id, productId: 'pk1_isp_proxies' as const, quantity: 1 })))
      .returning({ id: orders.id });
    await db
      .insert(couponRedemptions)
      .values(uses.map((use, i) => ({ promoCodeId: use.code, orderId: made[i]?.id ?? '', email: use.email })));
  });
  afterAll(() => t.close());

  it('lists codes most used first, twenty a page, each once, with their customers counted', async () => {
    const first = (await get('/api/admin/coupons/redemptions')).json();
    expect(first.coupons).toHaveLength(REDEMPTIONS_PAGE_SIZE);
    expect(first.coupons[0]).toMatchObject({ couponCode: 'BUSY', totalRedemptions: 131, uniqueUsers: 130 });
    expect(first.coupons[1]).toMatchObject({ couponCode: 'BULK25', totalRedemptions: 25, uniqueUsers: 1 });
    const second = (await get(`/api/admin/coupons/redemptions?before=${encodeURIComponent(first.next)}`)).json();
    expect(second.next).toBeNull();
    const codes = [...first.coupons, ...second.coupons].map((entry: { couponCode: string }) => entry.couponCode);
    expect(codes).toHaveLength(26);
    expect(new Set(codes).size).toBe(26);
    expect(codes.at(-1)).toBe('BULK1');
  });

  it("counts a code's uses and customers as redemptions are recorded, exactly when they come at once", async () => {
    const { db } = t.database;
    const [coupon] = await db.insert(coupons).values({ name: 'Rush', duration: 'once', percentOff: 5 }).returning();
    const [code] = await db
      .insert(promoCodes)
      .values({ couponId: coupon?.id ?? '', code: 'RUSH' })
      .returning();
    const paid = await db
      .insert(orders)
      .values(
        Array.from({ length: 12 }, () => ({ userId: carl.id, productId: 'pk1_isp_proxies' as const, quantity: 1 })),
      )
      .returning({ id: orders.id });
    // Twelve paid orders of five customers (Ann three times, in two spellings), recorded at once, one of them twice.
    const emails = ['ann@x.test', 'ANN@x.test', 'bob@x.test', 'cy@x.test', 'di@x.test', 'ed@x.test'];
    const record = (orderId: string, i: number) =>
      db.transaction((tx) =>
        recordRedemption({ tx, promoCodeId: code?.id ?? '', orderId, email: emails[i % emails.length] ?? '' }),
      );
    await Promise.all([...paid.map((order, i) => record(order.id, i)), record(paid[0]?.id ?? '', 0)]);
    const [kept] = await db
      .select()
      .from(promoCodes)
      .where(eq(promoCodes.id, code?.id ?? ''));
    expect(kept).toMatchObject({ timesRedeemed: 12, customers: 5 });
  });

  it("pages a code's customers alphabetically, and downloads them all as CSV", async () => {
    const url = `/api/admin/coupons/redemptions/${busyCode}/emails`;
    const first = (await get(url)).json();
    expect(first.emails).toHaveLength(REDEMPTION_EMAILS_PAGE_SIZE);
    expect(first.emails[0]).toEqual({ email: '=cmd,"quoted"@x.test', count: 1 });
    expect(first.emails[1]).toEqual({ email: 'u000@x.test', count: 2 });
    const seen = [...first.emails];
    let next = first.next;
    while (next) {
      const page = (await get(`${url}?after=${encodeURIComponent(next)}`)).json();
      seen.push(...page.emails);
      next = page.next;
    }
    expect(seen).toHaveLength(130);

    const csv = await get(`${url}.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="redemptions-${busyCode}.csv"`);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('email,redemptions');
    expect(lines[1]).toBe(`"'=cmd,""quoted""@x.test",1`);
    expect(lines[2]).toBe('u000@x.test,2');
    expect(lines).toHaveLength(131);
  });

  it('refuses a bad position or an unknown code with words, and lets only administrators read', async () => {
    const bad = await get('/api/admin/coupons/redemptions?before=nonsense');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^before is the position/);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await get(`/api/admin/coupons/redemptions/${unknown}/emails`)).statusCode).toBe(404);
    expect((await get(`/api/admin/coupons/redemptions/${unknown}/emails.csv`)).statusCode).toBe(404);
    expect((await get(`/api/admin/coupons/redemptions/${busyCode}/emails`, carl.cookie)).statusCode).toBe(403);
    expect((await get(`/api/admin/coupons/redemptions/${busyCode}/emails.csv`, carl.cookie)).statusCode).toBe(403);
  });
});
