import type { ReplacementHistory, ReplacementPreview, ReplacementResult, ReplacementStats } from '@storefront/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emailOutbox, ipReplacementSubnets, ipReplacements, orders, proxyIps } from '../../db/schema.ts';
import { testBrand } from '../../test/payments.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { expireOrder } from '../billing/expire-order.ts';

type ProductId = 'isp_proxies' | 'pk1_isp_proxies';

const DAY = 86_400_000;
let serial = 0;

/** `count` IPs of one /24 (`prefix` such as 203.0.113), made `ageDays` ago, free unless `orderId` is given. */
function ipsOf(prefix: string, count: number, options: { orderId?: string; ageDays?: number; productId?: ProductId }) {
  return Array.from({ length: count }, () => {
    serial += 1;
    const ip = `${prefix}.${(serial % 250) + 1}`;
    const port = 10_000 + serial;
    return {
      productId: options.productId ?? ('isp_proxies' as const),
      ip,
      port,
      username: 'u',
      password: 'p',
      endpoint: `${ip}:${port}:u:p`,
      subnet: `${prefix}.0/24`,
      assignedOrderId: options.orderId ?? null,
      createdAt: new Date(Date.now() - (options.ageDays ?? 0) * DAY),
    };
  });
}

describe('replacing bad static IPs', () => {
  let t: TestApp;
  let ann: { cookie: string; id: string };
  let bob: { cookie: string; id: string };
  let admin: { cookie: string; id: string };

  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: 'false', AUTH_RATE_LIMIT_PER_IP: '1000', ADMIN_EMAILS: 'admin@example.com' });
    ann = await signUpCustomer(t, 'ann@example.com');
    bob = await signUpCustomer(t, 'bob@example.com');
    admin = await signUpCustomer(t, 'admin@example.com');
  });
  afterAll(() => t.close());
  // Each test lays out the free stock it means: what an earlier one left free is taken away.
  beforeEach(async () => {
    await t.database.db.delete(proxyIps).where(and(isNull(proxyIps.assignedOrderId), eq(proxyIps.needRotated, false)));
  });

  /** A delivered order of `quantity` IPs in subnet `prefix`, renewing in 20 days. */
  async function deliveredOrder(
    userId: string,
    quantity: number,
    prefix: string,
    options: { productId?: ProductId; status?: 'delivered' | 'processing' | 'expired'; expiresAt?: Date } = {},
  ) {
    const productId = options.productId ?? 'isp_proxies';
    const [order] = await t.database.db
      .insert(orders)
      .values({
        userId,
        productId,
        quantity,
        status: options.status ?? 'delivered',
        purchasedAt: new Date(Date.now() - 10 * DAY),
        expiresAt: options.expiresAt ?? new Date(Date.now() + 20 * DAY),
        totalCents: quantity * 250,
      })
      .returning();
    if (!order) throw new Error('no order');
    const ips = ipsOf(prefix, quantity, { orderId: order.id, ageDays: 30, productId });
    await t.database.db.insert(proxyIps).values(ips);
    return { id: order.id, addresses: ips.map((ip) => `${ip.ip}:${ip.port}`), lines: ips.map((ip) => ip.endpoint) };
  }

  const replace = (cookie: string, orderId: string, ips: string[], reason = 'blocked') =>
    callApi(t, 'POST', `/api/orders/${orderId}/replacements`, { cookie, payload: { ips, reason } });
  const preview = (cookie: string, orderId: string, ips: string[], reason = 'blocked') =>
    callApi(t, 'POST', `/api/orders/${orderId}/replacements/preview`, { cookie, payload: { ips, reason } });
  const history = (cookie: string, orderId: string) =>
    callApi(t, 'GET', `/api/orders/${orderId}/replacements`, { cookie });
  const ipRow = async (address: string) => {
    const [ip, port] = address.split(':');
    const [row] = await t.database.db
      .select()
      .from(proxyIps)
      .where(and(eq(proxyIps.ip, ip ?? ''), eq(proxyIps.port, Number(port))));
    return row;
  };

  it('replaces two IPs with the oldest free ones outside their subnet; the old ones are burnt; lists show the new', async () => {
    const order = await deliveredOrder(ann.id, 20, '10.1.1');
    // Free stock: older IPs in the order's own subnet (never given), and a newer and an older subnet elsewhere.
    await t.database.db
      .insert(proxyIps)
      .values([
        ...ipsOf('10.1.1', 3, { ageDays: 90 }),
        ...ipsOf('10.2.2', 2, { ageDays: 10 }),
        ...ipsOf('10.3.3', 2, { ageDays: 40 }),
      ]);
    const picked = order.addresses.slice(0, 2);

    const seen = await preview(ann.cookie, order.id, picked);
    expect(seen.statusCode).toBe(200);
    const previewed = seen.json<ReplacementPreview>();
    expect(previewed).toMatchObject({ count: 2, atOnce: 2, waiting: 0, leftAfter: 0, withinAllowance: true });
    expect(previewed.allowance).toMatchObject({ percent: 10, limit: 2, used: 0, left: 2 });
    expect(previewed.message).toContain('uses 2 of your 2 replacements left');
    // A preview changes nothing.
    expect(await t.database.db.select().from(ipReplacements)).toHaveLength(0);

    const answer = await replace(ann.cookie, order.id, picked);
    expect(answer.statusCode).toBe(200);
    const result = answer.json<ReplacementResult>();
    expect(result.replaced.map((pair) => pair.oldIp)).toEqual(picked);
    // The oldest free IPs outside 10.1.1.0/24: the 40-day-old subnet's.
    expect(result.replaced.every((pair) => pair.newIp.startsWith('10.3.3.'))).toBe(true);
    expect(result.waiting).toEqual([]);
    expect(result.allowance).toMatchObject({ used: 2, left: 0 });
    expect(result.message).toBe('2 IPs replaced: the new lines are in your list.');

    for (const address of picked) {
      const old = await ipRow(address);
      expect(old).toMatchObject({ assignedOrderId: null, needRotated: true });
    }
    const listed = (await callApi(t, 'GET', '/api/orders', { cookie: ann.cookie })).json<
      { id: string; proxies: string[] }[]
    >();
    const proxies = listed.find((entry) => entry.id === order.id)?.proxies ?? [];
    expect(proxies).toHaveLength(20);
    for (const pair of result.replaced) expect(proxies).toContain(`${pair.newIp}:u:p`);
    for (const address of picked) expect(proxies.some((line) => line.startsWith(`${address}:`))).toBe(false);
    const link = await callApi(t, 'GET', '/api/proxy-list?product=isp_proxies', { cookie: ann.cookie });
    for (const pair of result.replaced) expect(link.body).toContain(`${pair.newIp}:u:p`);

    const entries = (await history(ann.cookie, order.id)).json<ReplacementHistory>();
    expect(entries.allowance).toMatchObject({ used: 2, left: 0 });
    expect(entries.replacements).toHaveLength(2);
    expect(entries.replacements.every((entry) => entry.reason === 'blocked' && entry.status === 'done')).toBe(true);
    expect(entries.replacements.map((entry) => entry.oldIp).sort()).toEqual([...picked].sort());

    // The allowance is spent for this billing period.
    const more = await replace(ann.cookie, order.id, [order.addresses[2] ?? '']);
    expect(more.statusCode).toBe(409);
    expect(more.json<{ message: string }>().message).toBe(
      'This replaces 1 IP, but 0 of your 2 replacements this billing period are left.',
    );
    const tooMany = await preview(ann.cookie, order.id, [order.addresses[2] ?? '']);
    expect(tooMany.json<ReplacementPreview>()).toMatchObject({ withinAllowance: false });

    // A renewal starts a new period (the order's expiry moves): the allowance is whole again.
    await t.database.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() + 50 * DAY) })
      .where(eq(orders.id, order.id));
    const renewed = (await history(ann.cookie, order.id)).json<ReplacementHistory>();
    expect(renewed.allowance).toMatchObject({ used: 0, left: 2, limit: 2 });
  });

  it('allows at least one replacement, and none once the order is not active', async () => {
    const small = await deliveredOrder(ann.id, 5, '10.4.4');
    await t.database.db.insert(proxyIps).values(ipsOf('10.5.5', 3, { ageDays: 5 }));
    const first = await replace(ann.cookie, small.id, [small.addresses[0] ?? ''], 'slow');
    expect(first.statusCode).toBe(200);
    expect(first.json<ReplacementResult>().allowance).toMatchObject({ limit: 1, used: 1, left: 0 });
    expect((await replace(ann.cookie, small.id, [small.addresses[1] ?? ''], 'slow')).statusCode).toBe(409);

    const ended = await deliveredOrder(ann.id, 5, '10.6.6', { expiresAt: new Date(Date.now() - DAY) });
    const late = await replace(ann.cookie, ended.id, [ended.addresses[0] ?? '']);
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toBe(
      'Only the IPs of an active, delivered order can be replaced.',
    );
  });

  it('never gives an IP of a subnet whose burnt IPs the customer gave back', async () => {
    const order = await deliveredOrder(ann.id, 30, '10.7.7');
    // Two IPs of the order live in another subnet, where free stock is oldest.
    const [elsewhere] = await t.database.db
      .update(proxyIps)
      .set({ subnet: '10.7.8.0/24' })
      .where(eq(proxyIps.endpoint, order.lines[0] ?? ''))
      .returning();
    await t.database.db.insert(proxyIps).values([...ipsOf('10.8.8', 1, { ageDays: 200 })]);
    const first = (await replace(ann.cookie, order.id, [order.addresses[1] ?? ''])).json<ReplacementResult>();
    expect(first.replaced[0]?.newIp.startsWith('10.8.8.')).toBe(true);
    // 10.7.7.0/24 now holds an IP Ann burnt: a free IP there, however old, is not hers to get.
    await t.database.db
      .insert(proxyIps)
      .values([...ipsOf('10.7.7', 1, { ageDays: 300 }), ...ipsOf('10.9.9', 1, { ageDays: 1 })]);
    const second = (
      await replace(ann.cookie, order.id, [`${elsewhere?.ip}:${elsewhere?.port}`])
    ).json<ReplacementResult>();
    expect(second.replaced[0]?.newIp.startsWith('10.9.9.')).toBe(true);
  });

  it('waits for stock, keeping the old IP, and is made when IPs are uploaded', async () => {
    const order = await deliveredOrder(ann.id, 10, '10.10.10', { productId: 'pk1_isp_proxies' });
    const seen = (
      await preview(ann.cookie, order.id, [order.addresses[0] ?? ''], 'no_connect')
    ).json<ReplacementPreview>();
    expect(seen).toMatchObject({ atOnce: 0, waiting: 1 });
    expect(seen.message).toContain('1 IP waits for new stock');
    const answer = await replace(ann.cookie, order.id, [order.addresses[0] ?? ''], 'no_connect');
    expect(answer.statusCode).toBe(200);
    const result = answer.json<ReplacementResult>();
    expect(result).toMatchObject({ replaced: [], waiting: [order.addresses[0]] });
    expect(result.message).toBe('1 IP waits for new stock: it keeps working until its replacement arrives.');
    expect(await ipRow(order.addresses[0] ?? '')).toMatchObject({ assignedOrderId: order.id, needRotated: false });
    // Asked again while it waits: refused, and the allowance (1) is used.
    const again = await replace(ann.cookie, order.id, [order.addresses[0] ?? ''], 'no_connect');
    expect(again.statusCode).toBe(409);
    const stats = (
      await callApi(t, 'GET', '/api/admin/ips/pk1/replacements', { cookie: admin.cookie })
    ).json<ReplacementStats>();
    expect(stats.waiting).toBe(1);
    // The order's waiting IPs, whatever the history's page: the dialog keeps them from being asked again.
    expect((await history(ann.cookie, order.id)).json<ReplacementHistory>().waitingIps).toEqual([order.addresses[0]]);

    const upload = await callApi(t, 'POST', '/api/admin/stocks/pk1/upload', {
      cookie: admin.cookie,
      payload: { ips: ['10.11.11.5:8000:new:pass'] },
    });
    expect(upload.statusCode).toBe(200);
    expect(await ipRow(order.addresses[0] ?? '')).toMatchObject({ assignedOrderId: null, needRotated: true });
    expect(await ipRow('10.11.11.5:8000')).toMatchObject({ assignedOrderId: order.id });
    const [entry] = (await history(ann.cookie, order.id)).json<ReplacementHistory>().replacements;
    expect(entry).toMatchObject({ status: 'done', oldIp: order.addresses[0], newIp: '10.11.11.5:8000' });
    // The customer is told, with the old line and the new one.
    const [mail] = await t.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `replacements-done:${entry?.id}`));
    expect(mail?.subject).toBe('Your replacement IP is ready');
    expect(mail?.toAddress).toBe('ann@example.com');
    expect(mail?.text).toContain(`${order.addresses[0]} → 10.11.11.5:8000`);
  });

  it("refuses anyone else's order or IP, and changes nothing", async () => {
    const order = await deliveredOrder(ann.id, 20, '10.12.12');
    const bobs = await deliveredOrder(bob.id, 20, '10.13.13');
    await t.database.db.insert(proxyIps).values(ipsOf('10.14.14', 5, { ageDays: 5 }));
    const before = await t.database.db.select().from(proxyIps).where(eq(proxyIps.assignedOrderId, order.id));

    const viaAnnsOrder = await replace(bob.cookie, order.id, [order.addresses[0] ?? '']);
    expect(viaAnnsOrder.statusCode).toBe(404);
    expect((await preview(bob.cookie, order.id, [order.addresses[0] ?? ''])).statusCode).toBe(404);
    expect((await history(bob.cookie, order.id)).statusCode).toBe(404);
    const viaOwnOrder = await replace(bob.cookie, bobs.id, [order.addresses[0] ?? '']);
    expect(viaOwnOrder.statusCode).toBe(400);
    expect(viaOwnOrder.json<{ message: string }>().message).toBe(
      `This IP is not in this order: ${order.addresses[0]}.`,
    );
    const mixed = await replace(bob.cookie, bobs.id, [bobs.addresses[0] ?? '', order.addresses[1] ?? '']);
    expect(mixed.statusCode).toBe(400);
    expect(
      (await callApi(t, 'POST', `/api/orders/${order.id}/replacements`, { payload: { ips: [], reason: 'x' } }))
        .statusCode,
    ).toBe(401);

    const after = await t.database.db.select().from(proxyIps).where(eq(proxyIps.assignedOrderId, order.id));
    expect(after.map((row) => row.id).sort()).toEqual(before.map((row) => row.id).sort());
    expect(await t.database.db.select().from(ipReplacements).where(eq(ipReplacements.orderId, bobs.id))).toHaveLength(
      0,
    );
  });

  it('answers bad input with a 400 in words', async () => {
    const order = await deliveredOrder(ann.id, 20, '10.15.15');
    const cases: [unknown, string][] = [
      [{ ips: [], reason: 'blocked' }, 'Pick at least one IP to replace.'],
      [{ ips: ['nope'], reason: 'blocked' }, 'Each IP is given as ip:port, such as 203.0.113.7:8000.'],
      [{ ips: [order.addresses[0], order.addresses[0]], reason: 'blocked' }, 'Name each IP once.'],
      [{ ips: [order.addresses[0]], reason: 'bored' }, 'The reason is one of blocked, slow, no_connect or other.'],
    ];
    for (const [payload, message] of cases) {
      const answer = await callApi(t, 'POST', `/api/orders/${order.id}/replacements`, { cookie: ann.cookie, payload });
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ message: string }>().message).toContain(message);
    }
    const badOrder = await replace(ann.cookie, 'not-an-id', [order.addresses[0] ?? '']);
    expect(badOrder.statusCode).toBe(400);
  });

  it('lets an API key read the history and allowance, never preview or replace', async () => {
    const order = await deliveredOrder(ann.id, 20, '10.16.16');
    const { key } = (
      await callApi(t, 'POST', '/api/api-keys', { cookie: ann.cookie, payload: { name: 'tool' } })
    ).json<{ key: string }>();
    const read = await callApi(t, 'GET', `/api/orders/${order.id}/replacements`, { key });
    expect(read.statusCode).toBe(200);
    expect(read.json<ReplacementHistory>().allowance).toMatchObject({ limit: 2, left: 2 });
    const payload = { ips: [order.addresses[0]], reason: 'blocked' };
    expect(
      (await callApi(t, 'POST', `/api/orders/${order.id}/replacements/preview`, { key, payload })).statusCode,
    ).toBe(401);
    expect((await callApi(t, 'POST', `/api/orders/${order.id}/replacements`, { key, payload })).statusCode).toBe(401);
    expect(await t.database.db.select().from(ipReplacements).where(eq(ipReplacements.orderId, order.id))).toHaveLength(
      0,
    );
  });

  it('20 requests at once replace within the allowance only, each free IP given once', async () => {
    const order = await deliveredOrder(ann.id, 20, '10.17.17');
    await t.database.db.insert(proxyIps).values(ipsOf('10.18.18', 30, { ageDays: 5 }));
    const answers = await Promise.all(
      order.addresses.map((address) => replace(ann.cookie, order.id, [address], 'other')),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 409)).toHaveLength(18);
    const held = await t.database.db.select().from(proxyIps).where(eq(proxyIps.assignedOrderId, order.id));
    expect(held).toHaveLength(20);
    expect(held.filter((row) => row.subnet === '10.18.18.0/24')).toHaveLength(2);
    expect(await t.database.db.select().from(ipReplacements).where(eq(ipReplacements.orderId, order.id))).toHaveLength(
      2,
    );

    // The same IP asked 20 times at once (a new period): replaced once.
    await t.database.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() + 60 * DAY) })
      .where(eq(orders.id, order.id));
    const target = held.find((row) => row.subnet === '10.17.17.0/24');
    const same = await Promise.all(
      Array.from({ length: 20 }, () => replace(ann.cookie, order.id, [`${target?.ip}:${target?.port}`], 'slow')),
    );
    expect(same.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(same.filter((answer) => answer.statusCode !== 200).every((answer) => answer.statusCode < 500)).toBe(true);
    const free = await t.database.db
      .select()
      .from(proxyIps)
      .where(and(isNull(proxyIps.assignedOrderId), eq(proxyIps.subnet, '10.18.18.0/24')));
    expect(free).toHaveLength(27);
  });

  it('20 orders replacing at once share 5 free IPs: 5 made, 15 wait, no IP given twice', async () => {
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, index) => deliveredOrder(ann.id, 10, `10.${50 + index}.1`)),
    );
    await t.database.db.insert(proxyIps).values(ipsOf('10.49.49', 5, { ageDays: 5 }));
    const answers = await Promise.all(
      many.map((order) => replace(ann.cookie, order.id, [order.addresses[0] ?? ''], 'slow')),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    const results = answers.map((answer) => answer.json<ReplacementResult>());
    expect(results.filter((result) => result.replaced.length === 1)).toHaveLength(5);
    expect(results.filter((result) => result.waiting.length === 1)).toHaveLength(15);
    const given = await t.database.db.select().from(proxyIps).where(eq(proxyIps.subnet, '10.49.49.0/24'));
    expect(new Set(given.map((row) => row.assignedOrderId)).size).toBe(5);
    expect(given.every((row) => row.assignedOrderId !== null)).toBe(true);
  });

  it('shows the administrator replacements by reason and by subnet, the most flagged first; a swap starts afresh', async () => {
    const carol = await signUpCustomer(t, 'carol@example.com');
    const annOrder = await deliveredOrder(ann.id, 20, '10.20.20');
    const carolOrder = await deliveredOrder(carol.id, 20, '10.20.20');
    const slowOrder = await deliveredOrder(bob.id, 30, '10.21.21');
    await t.database.db.insert(proxyIps).values(ipsOf('10.22.22', 10, { ageDays: 5 }));
    expect((await replace(bob.cookie, slowOrder.id, slowOrder.addresses.slice(0, 3), 'slow')).statusCode).toBe(200);
    expect((await replace(ann.cookie, annOrder.id, [annOrder.addresses[0] ?? ''], 'blocked')).statusCode).toBe(200);
    expect((await replace(carol.cookie, carolOrder.id, [carolOrder.addresses[0] ?? ''], 'blocked')).statusCode).toBe(
      200,
    );

    const answer = await callApi(t, 'GET', '/api/admin/ips/isp/replacements', { cookie: admin.cookie });
    expect(answer.statusCode).toBe(200);
    const stats = answer.json<ReplacementStats>();
    const top = stats.subnets[0];
    expect(top).toMatchObject({ subnet: '10.20.20.0/24', total: 2, blockedCustomers: 2 });
    expect(top?.byReason).toMatchObject({ blocked: 2, slow: 0 });
    expect(stats.subnets.find((row) => row.subnet === '10.21.21.0/24')).toMatchObject({
      total: 3,
      blockedCustomers: 0,
      byReason: { slow: 3 },
    });
    expect(stats.byReason.slow).toBeGreaterThanOrEqual(3);
    expect(stats.total).toBe(Object.values(stats.byReason).reduce((sum, value) => sum + value, 0));
    expect((await callApi(t, 'GET', '/api/admin/ips/isp/replacements', { cookie: ann.cookie })).statusCode).toBe(403);

    // The swap of 10.20.20.0/24 gives it new addresses: its replacements no longer count against it.
    const subnetIps = await t.database.db.select().from(proxyIps).where(eq(proxyIps.subnet, '10.20.20.0/24'));
    const swap = await callApi(t, 'POST', '/api/admin/ips/isp/subnets/swap', {
      cookie: admin.cookie,
      payload: {
        subnet: '10.20.20.0/24',
        newEndpoints: subnetIps.map((_, index) => `10.20.20.${index + 1}:30${String(index).padStart(3, '0')}:s:w`),
      },
    });
    expect(swap.statusCode).toBe(200);
    const afterSwap = (
      await callApi(t, 'GET', '/api/admin/ips/isp/replacements', { cookie: admin.cookie })
    ).json<ReplacementStats>();
    expect(afterSwap.subnets.some((row) => row.subnet === '10.20.20.0/24')).toBe(false);
    expect(afterSwap.total).toBe(stats.total);
  });

  it("pages the history and the console's subnets by position, in order, each row once", async () => {
    const order = await deliveredOrder(ann.id, 20, '10.60.60');
    const start = Date.now() - DAY;
    await t.database.db.insert(ipReplacements).values(
      Array.from({ length: 45 }, (_, index) => ({
        orderId: order.id,
        userId: ann.id,
        productId: 'isp_proxies' as const,
        reason: 'other' as const,
        status: 'void' as const,
        oldIpId: crypto.randomUUID(),
        oldAddress: `10.60.61.${index + 1}:8000`,
        oldSubnet: '10.60.61.0/24',
        periodEnd: new Date(start),
        // Some share a moment: the id orders them.
        requestedAt: new Date(start + Math.floor(index / 3) * 1000),
      })),
    );
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const query: string = after ? `?after=${encodeURIComponent(after)}` : '';
      const page = (
        await callApi(t, 'GET', `/api/orders/${order.id}/replacements${query}`, { cookie: ann.cookie })
      ).json<ReplacementHistory>();
      seen.push(...page.replacements.map((entry) => `${entry.requestedAt}|${entry.id}`));
      after = page.next;
    } while (after);
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    expect([...seen].sort().reverse()).toEqual(seen);
    const bad = await callApi(t, 'GET', `/api/orders/${order.id}/replacements?after=nope`, { cookie: ann.cookie });
    expect(bad.statusCode).toBe(400);

    await t.database.db.insert(ipReplacementSubnets).values(
      Array.from({ length: 60 }, (_, index) => ({
        productId: 'pk1_isp_proxies' as const,
        subnet: `10.70.${index}.0/24`,
        total: 10 - (index % 10),
        other: 10 - (index % 10),
        blockedCustomers: index % 4,
      })),
    );
    const rows: { subnet: string; blockedCustomers: number; total: number }[] = [];
    let position: string | null = null;
    do {
      const query: string = position ? `?after=${encodeURIComponent(position)}` : '';
      const page = (
        await callApi(t, 'GET', `/api/admin/ips/pk1/replacements${query}`, { cookie: admin.cookie })
      ).json<ReplacementStats>();
      rows.push(...page.subnets);
      position = page.next;
    } while (position);
    const pk1Rows = rows.filter((row) => row.subnet.startsWith('10.70.'));
    expect(pk1Rows).toHaveLength(60);
    expect(new Set(pk1Rows.map((row) => row.subnet)).size).toBe(60);
    for (let index = 1; index < rows.length; index++) {
      const [a, b] = [rows[index - 1], rows[index]];
      if (!a || !b) continue;
      const ordered =
        a.blockedCustomers > b.blockedCustomers ||
        (a.blockedCustomers === b.blockedCustomers &&
          (a.total > b.total || (a.total === b.total && a.subnet < b.subnet)));
      expect(ordered, `${a.subnet} before ${b.subnet}`).toBe(true);
    }
  });

  it('voids a waiting replacement when its order ends', async () => {
    const order = await deliveredOrder(ann.id, 10, '10.30.30', { productId: 'pk1_isp_proxies' });
    await t.database.db
      .delete(proxyIps)
      .where(and(eq(proxyIps.productId, 'pk1_isp_proxies'), isNull(proxyIps.assignedOrderId)));
    const answer = await replace(ann.cookie, order.id, [order.addresses[0] ?? '']);
    expect(answer.json<ReplacementResult>().waiting).toHaveLength(1);
    await t.database.db.transaction(async (tx) => {
      const [row] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
      if (row) await expireOrder({ tx, brand: testBrand, order: row, endedAt: new Date() });
    });
    const [entry] = (await history(ann.cookie, order.id)).json<ReplacementHistory>().replacements;
    expect(entry?.status).toBe('void');
  });
});

describe('the replacement allowance setting', () => {
  it('IP_REPLACEMENT_PERCENT sets the share; 0 turns replacements off', async () => {
    for (const [percent, expected] of [
      ['50', 200],
      ['0', 409],
    ] as const) {
      const t = await createTestApp({ SEED_DEMO: 'false', IP_REPLACEMENT_PERCENT: percent });
      try {
        const customer = await signUpCustomer(t, 'set@example.com');
        const [order] = await t.database.db
          .insert(orders)
          .values({
            userId: customer.id,
            productId: 'isp_proxies',
            quantity: 4,
            status: 'delivered',
            purchasedAt: new Date(),
            expiresAt: new Date(Date.now() + 20 * DAY),
          })
          .returning();
        const ips = ipsOf('10.40.40', 4, { orderId: order?.id, ageDays: 9 });
        await t.database.db.insert(proxyIps).values([...ips, ...ipsOf('10.41.41', 4, {})]);
        const answer = await callApi(t, 'POST', `/api/orders/${order?.id}/replacements`, {
          cookie: customer.cookie,
          payload: { ips: ips.slice(0, 2).map((ip) => `${ip.ip}:${ip.port}`), reason: 'slow' },
        });
        expect(answer.statusCode, percent).toBe(expected);
        if (percent === '0') {
          expect(answer.json<{ message: string }>().message).toBe('IP replacements are turned off in this shop.');
        } else {
          expect(answer.json<ReplacementResult>().allowance).toMatchObject({ percent: 50, limit: 2, left: 0 });
        }
      } finally {
        await t.close();
      }
    }
  });
});
