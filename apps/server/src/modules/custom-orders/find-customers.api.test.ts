import { CUSTOMER_MATCHES_MAX, customOrderMessages } from '@storefront/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, users } from '../../db/schema.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';

describe('finding a customer', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let carl: { cookie: string; id: string };
  const search = (q: string, cookie = boss.cookie) =>
    callApi(t, 'GET', `/api/admin/users/search?q=${encodeURIComponent(q)}`, { cookie });
  const emailsOf = async (q: string) =>
    ((await search(q)).json() as { matches: { email: string }[] }).matches.map((match) => match.email);

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'boss@example.com', AUTH_RATE_LIMIT_PER_IP: '1000' });
    boss = await signUpCustomer(t, 'boss@example.com');
    carl = await signUpCustomer(t, 'carl@example.com');
    const now = new Date();
    await t.database.db.insert(users).values([
      { id: 'u-carla', name: 'Carla Ruiz', email: 'carla@shop.test', createdAt: now, updatedAt: now },
      { id: 'u-percent', name: 'Per Cent', email: 'per%cent@shop.test', createdAt: now, updatedAt: now },
      { id: 'u-under', name: 'Under Score', email: 'a_b@shop.test', createdAt: now, updatedAt: now },
      ...Array.from({ length: CUSTOMER_MATCHES_MAX + 5 }, (_, i) => ({
        id: `u-bulk-${i}`,
        name: `Bulk ${i}`,
        email: `bulk${String(i).padStart(2, '0')}@shop.test`,
        createdAt: now,
        updatedAt: now,
      })),
    ]);
  });
  afterAll(() => t.close());

  it('finds the exact e-mail first, in any case, then the e-mails and names that start with the search', async () => {
    const exact = await search('  Carl@Example.COM ');
    expect(exact.statusCode).toBe(200);
    expect(exact.json()).toEqual({
      matches: [{ id: carl.id, email: 'carl@example.com', name: 'carl', createdAt: expect.any(String) }],
      more: false,
    });
    expect(await emailsOf('carl')).toEqual(['carl@example.com', 'carla@shop.test']);
    expect(await emailsOf('CARLA R')).toEqual(['carla@shop.test']);
    expect(await emailsOf('nobody')).toEqual([]);
  });

  it('matches % and _ as themselves, not as patterns', async () => {
    expect(await emailsOf('per%')).toEqual(['per%cent@shop.test']);
    expect(await emailsOf('%')).toEqual([]);
    expect(await emailsOf('a_')).toEqual(['a_b@shop.test']);
    expect(await emailsOf('_')).toEqual([]);
  });

  it('finds a customer by their user id and by the id of one of their orders', async () => {
    expect(await emailsOf(carl.id)).toEqual(['carl@example.com']);
    const [order] = await t.database.db
      .insert(orders)
      .values({ userId: 'u-carla', productId: 'pk1_isp_proxies', quantity: 5, status: 'awaiting_payment' })
      .returning();
    expect(await emailsOf(order?.id.toUpperCase() ?? '')).toEqual(['carla@shop.test']);
    expect(await emailsOf('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('shows at most twenty and says there are more', async () => {
    const answer = (await search('bulk')).json();
    expect(answer.matches).toHaveLength(CUSTOMER_MATCHES_MAX);
    expect(answer.matches[0].email).toBe('bulk00@shop.test');
    expect(answer.more).toBe(true);
  });

  it('asks for something to search for, and lets only administrators search', async () => {
    const empty = await search('   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: customOrderMessages.enterEmail });
    expect((await search('carl', carl.cookie)).statusCode).toBe(403);
    expect((await callApi(t, 'GET', '/api/admin/users/search?q=carl')).statusCode).toBe(401);
  });
});
