import { customOrderMessages } from '@storefront/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';

const proxies = (count: number, third = 40) =>
  Array.from({ length: count }, (_, i) => `198.18.${third}.${i + 1}:6000:cu${i}:cp${i}`);

describe('custom PK1 orders', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let carl: { cookie: string; id: string };
  let dora: { cookie: string; id: string };
  const call = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    callApi(t, method, url, { cookie, payload });
  const lookUp = (email: string) => call(boss.cookie, 'GET', `/api/admin/users?email=${encodeURIComponent(email)}`);
  const create = (payload: object) => call(boss.cookie, 'POST', '/api/admin/checkout/pk1/custom', payload);
  const fulfil = (orderId: string, ips: string[], userId = carl.id) =>
    call(boss.cookie, 'POST', '/api/admin/orders/fulfill', { userId, orderId, ips });
  const checkoutIdOf = (url: string) => url.split('/sandbox/checkout/')[1] ?? '';

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'boss@example.com', AUTH_RATE_LIMIT_PER_IP: '1000' });
    boss = await signUpCustomer(t, 'boss@example.com');
    carl = await signUpCustomer(t, 'carl@example.com');
    dora = await signUpCustomer(t, 'dora@example.com');
  });
  afterAll(() => t.close());

  it('finds a customer by e-mail, trimmed and in any case, with the spec message for an unknown one', async () => {
    const found = await lookUp('  Carl@Example.COM ');
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({
      user: { id: carl.id, email: 'carl@example.com', createdAt: expect.any(String) },
      customOrders: [],
    });
    const unknown = await lookUp('nobody@example.com');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: customOrderMessages.userNotFound });
    expect((await lookUp('   ')).json()).toEqual({ message: customOrderMessages.enterEmail });
    expect((await call(carl.cookie, 'GET', '/api/admin/users?email=dora@example.com')).statusCode).toBe(403);
  });

  it('makes a payment link only the customer can open and pay, then the paid order waits for fulfilment', async () => {
    for (const quantity of [0, 1001, 2.5]) {
      const refused = await create({ userId: carl.id, quantity });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(customOrderMessages.quantityRange);
    }
    expect((await create({ userId: 'no-such-user', quantity: 7 })).statusCode).toBe(404);

    const made = await create({ userId: carl.id, quantity: 7 });
    expect(made.statusCode).toBe(200);
    const id = checkoutIdOf(made.json().checkoutUrl);
    // Nobody but Carl sees or pays it: not Dora, not the administrator who made it.
    for (const other of [dora, boss]) {
      expect((await call(other.cookie, 'GET', `/api/sandbox/checkout/${id}`)).statusCode).toBe(404);
      expect((await call(other.cookie, 'POST', `/api/sandbox/checkout/${id}/pay`, { card: 'ok' })).statusCode).toBe(
        404,
      );
    }
    const page = (await call(carl.cookie, 'GET', `/api/sandbox/checkout/${id}`)).json();
    expect(page).toMatchObject({ productId: 'pk1_isp_proxies', quantity: 7, totalCents: 1750, status: 'open' });

    const [waiting] = (await lookUp('carl@example.com')).json().customOrders;
    expect(waiting).toMatchObject({ quantity: 7, status: 'awaiting_payment', isPaid: false });
    expect(waiting.checkoutLink).toBe(made.json().checkoutUrl);
    expect((await fulfil(waiting.orderId, proxies(7))).json().message).toBe(customOrderMessages.notPaid);

    expect((await call(carl.cookie, 'POST', `/api/sandbox/checkout/${id}/pay`, { card: 'ok' })).statusCode).toBe(200);
    const [paid] = (await lookUp('carl@example.com')).json().customOrders;
    expect(paid).toMatchObject({ status: 'paid', isPaid: true, checkoutLink: null });
    const [listed] = (await call(carl.cookie, 'GET', '/api/orders')).json();
    expect(listed).toMatchObject({ id: paid.orderId, processing: true, proxies: [] });

    // New PK1 stock never goes to a custom order: it is fulfilled by hand.
    const upload = await call(boss.cookie, 'POST', '/api/admin/stocks/pk1/upload', { ips: proxies(20, 41) });
    expect(upload.json()).toMatchObject({ added: 20, delivered: 0 });
  });

  it('checks the fulfilment as the spec says, then delivers exactly those proxies, once', async () => {
    const [order] = (await lookUp('carl@example.com')).json().customOrders;
    const message = async (ips: string[]) => (await fulfil(order.orderId, ips)).json().message;
    expect(await message(['', ' '])).toBe(customOrderMessages.emptyFulfil);
    expect(await message(proxies(6))).toBe(customOrderMessages.quantityMismatch(7, 6));
    expect(await message([...proxies(5), '198.18.40.6:0', '198.18.40.300:6000'])).toBe(
      customOrderMessages.invalidFormat(2),
    );
    expect(await message([...proxies(6), '198.18.40.9:6000:user:'])).toBe(customOrderMessages.invalidFormat(1));
    expect(await message([...proxies(6), '198.18.41.1:6000'])).toMatch(/already in the pool: 198\.18\.41\.1:6000/);
    expect((await fulfil(order.orderId, proxies(7), dora.id)).json().message).toBe(customOrderMessages.orderNotFound);

    const lines = [...proxies(6), '198.18.40.7:6000'];
    const done = await fulfil(order.orderId, lines);
    expect(done.statusCode).toBe(200);
    expect(done.json().customOrders[0]).toMatchObject({ orderId: order.orderId, status: 'fulfilled', isPaid: true });
    const [listed] = (await call(carl.cookie, 'GET', '/api/orders')).json();
    expect(listed).toMatchObject({ id: order.orderId, processing: false });
    expect([...listed.proxies].sort()).toEqual([...lines].sort());
    await expect
      .poll(() =>
        t.mails.some((mail) => mail.to === 'carl@example.com' && /PK1 ISP Proxies are ready/.test(mail.subject)),
      )
      .toBe(true);

    const again = await fulfil(order.orderId, proxies(7, 42));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(customOrderMessages.alreadyFulfilled);
    const log = (await call(boss.cookie, 'GET', '/api/admin/audit-log')).json();
    expect(log.entries.map((entry: { action: string }) => entry.action)).toEqual(
      expect.arrayContaining(['custom.create', 'custom.fulfil']),
    );
  });
});
