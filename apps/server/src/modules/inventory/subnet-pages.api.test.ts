import { BURNT_IPS_PAGE_SIZE, type IpStock, SUBNETS_PAGE_SIZE, type SubnetsData } from '@storefront/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, proxyIps } from '../../db/schema.ts';
import { testBrand } from '../../test/payments.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { uploadIps } from './upload-ips.ts';

/** 130 subnets 10.<a>.<b>.0/24 of 3 IPs each, in an order unlike the networks' (10.0.10 before 10.0.2 as text). */
const SUBNETS = Array.from({ length: 130 }, (_, n) => `10.${Math.floor(n / 100)}.${n % 100}.0/24`);
const endpointsOf = (subnet: string) => [1, 2, 3].map((k) => `${subnet.replace('.0/24', `.${k}`)}:8000:u:p`);
const byNetwork = (a: string, b: string) => {
  const parts = (subnet: string) => subnet.split('/')[0]?.split('.').map(Number) ?? [];
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 4; i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

describe('the IP inventory a page at a time', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let ann: { cookie: string; id: string };
  let annOrder: string;
  const get = (url: string, cookie = boss.cookie) => callApi(t, 'GET', url, { cookie });
  const page = async (query: string): Promise<SubnetsData> => {
    const answer = await get(`/api/admin/ips/isp/subnets${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };

  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: 'false', ADMIN_EMAILS: 'boss@example.com', AUTH_RATE_LIMIT_PER_IP: '1000' });
    boss = await signUpCustomer(t, 'boss@example.com');
    ann = await signUpCustomer(t, 'ann@example.com');
    const actor = { id: boss.id, email: 'boss@example.com' };
    await uploadIps({
      db: t.database.db,
      brand: testBrand,
      actor,
      productId: 'isp_proxies',
      lines: SUBNETS.flatMap(endpointsOf),
    });
    // Ann holds the first IP of 10.0.7 and 10.1.3; the IPs .3 of 10.0.40–10.0.44 are burnt.
    const db = t.database.db;
    const [order] = await db
      .insert(orders)
      .values({ userId: ann.id, productId: 'isp_proxies', quantity: 2, totalCents: 100, status: 'delivered' })
      .returning({ id: orders.id });
    annOrder = order?.id ?? '';
    await db
      .update(proxyIps)
      .set({ assignedOrderId: annOrder })
      .where(inArray(proxyIps.ip, ['10.0.7.1', '10.1.3.1']));
    await db
      .update(proxyIps)
      .set({ needRotated: true })
      .where(
        inArray(
          proxyIps.ip,
          [40, 41, 42, 43, 44].map((b) => `10.0.${b}.3`),
        ),
      );
  });
  afterAll(() => t.close());

  it('pages every subnet once, in network order, with the whole pool in the totals', async () => {
    const seen: string[] = [];
    let after = '';
    let pages = 0;
    for (;;) {
      const answer = await page(after ? `?after=${encodeURIComponent(after)}` : '');
      expect(answer).toMatchObject({
        totalSubnets: 130,
        totalIps: 390,
        assignedIps: 2,
        burntIps: 5,
        availableIps: 383,
      });
      expect(answer.subnets.length).toBeLessThanOrEqual(SUBNETS_PAGE_SIZE);
      expect(answer.subnets.every((subnet) => subnet.ips.length === 0)).toBe(true);
      seen.push(...answer.subnets.map((subnet) => subnet.subnet));
      pages += 1;
      if (!answer.next) break;
      after = answer.next;
    }
    expect(pages).toBe(Math.ceil(130 / SUBNETS_PAGE_SIZE));
    expect(seen).toEqual([...SUBNETS].sort(byNetwork));
  });

  it('narrows by a subnet or an IP, a state and a customer', async () => {
    const names = async (query: string) => (await page(query)).subnets.map((subnet) => subnet.subnet);
    // The start of a subnet, as it is typed: 10.1.1 finds 10.1.1 and 10.1.10 to 10.1.19.
    expect(await names('?search=10.1.1')).toEqual(
      SUBNETS.filter((subnet) => subnet.startsWith('10.1.1')).sort(byNetwork),
    );
    expect(await names('?search=10.1.1')).toHaveLength(11);
    expect(await names('?search=10.0.9.2')).toEqual(['10.0.9.0/24']);
    expect(await names('?search=10.0.9.0/24')).toEqual(['10.0.9.0/24']);
    expect(await names('?search=192.0.2.1')).toEqual([]);
    expect(await names('?state=burnt')).toEqual([
      '10.0.40.0/24',
      '10.0.41.0/24',
      '10.0.42.0/24',
      '10.0.43.0/24',
      '10.0.44.0/24',
    ]);
    expect(await names('?state=assigned')).toEqual(['10.0.7.0/24', '10.1.3.0/24']);
    expect((await page('?state=free')).subnets).toHaveLength(SUBNETS_PAGE_SIZE);
    expect(await names('?customer=ANN@example.com')).toEqual(['10.0.7.0/24', '10.1.3.0/24']);
    expect(await names(`?customer=${annOrder}`)).toEqual(['10.0.7.0/24', '10.1.3.0/24']);
    expect(await names('?customer=nobody@example.com')).toEqual([]);
    expect(await names('?customer=ann@example.com&search=10.1')).toEqual(['10.1.3.0/24']);
    expect(await names('?state=burnt&after=10.0.42.0%2F24')).toEqual(['10.0.43.0/24', '10.0.44.0/24']);
  });

  it('opens one subnet with its IPs, the filtered ones when a filter is on', async () => {
    const one = (await page('?subnet=10.0.7.0/24')).subnets[0];
    expect(one).toMatchObject({ subnet: '10.0.7.0/24', totalIps: 3, assignedIps: 1, unassignedIps: 2, burntIps: 0 });
    expect(one?.ips.map((ip) => [ip.ip, ip.isAssigned, ip.assignedToEntityId])).toEqual([
      ['10.0.7.1', true, annOrder],
      ['10.0.7.2', false, null],
      ['10.0.7.3', false, null],
    ]);
    expect((await page('?subnet=10.0.7.0/24&state=free')).subnets[0]?.ips.map((ip) => ip.ip)).toEqual([
      '10.0.7.2',
      '10.0.7.3',
    ]);
    expect((await page('?subnet=10.0.7.0/24&customer=ann@example.com')).subnets[0]?.ips.map((ip) => ip.ip)).toEqual([
      '10.0.7.1',
    ]);
    expect((await page('?subnet=10.0.7.0/24&ips=false')).subnets[0]?.ips).toEqual([]);
    const unknown = await get('/api/admin/ips/isp/subnets?subnet=192.0.2.0/24');
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, 'This subnet has no IPs in this pool.']);
  });

  it('refuses what it cannot read, in words, and only administrators read it', async () => {
    const refused = async (query: string) => {
      const answer = await get(`/api/admin/ips/isp/subnets${query}`);
      expect(answer.statusCode).toBe(400);
      return answer.json().message as string;
    };
    expect(await refused('?ips=true')).toMatch(/IPs come one subnet at a time/);
    expect(await refused('?after=10.0.0')).toMatch(/after is the position a previous page gave/);
    expect(await refused('?after=10.0.300.0%2F24')).toMatch(/after is the position/);
    expect(await refused('?search=abc')).toMatch(/Search by a subnet or an IP/);
    expect(await refused('?state=sold')).toMatch(/state is one of free, assigned, burnt/);
    expect(await refused('?customer=ann')).toMatch(/Search by the customer's e-mail or an order id/);
    expect(await refused('?subnet=10.0.7.0')).toBe('This subnet has no IPs in this pool.');
    expect((await get('/api/admin/ips/isp/subnets', ann.cookie)).statusCode).toBe(403);
    expect((await get('/api/admin/stocks/isp/burnt.txt', ann.cookie)).statusCode).toBe(403);
    expect((await callApi(t, 'GET', '/api/admin/stocks/isp/burnt.txt')).statusCode).toBe(401);
  });

  it('pages the burnt IPs in address order, and downloads them whole', async () => {
    // 250 burnt in all: the five above and every IP .1 and .2 of 10.0.0–10.1.29 but 10.0.7's and 10.1.3's held .1.
    const db = t.database.db;
    await db
      .update(proxyIps)
      .set({ needRotated: true })
      .where(and(sql`split_part(${proxyIps.ip}, '.', 4) in ('1', '2')`, sql`${proxyIps.assignedOrderId} is null`));
    const counted = await db
      .select({ ip: proxyIps.ip, port: proxyIps.port })
      .from(proxyIps)
      .where(eq(proxyIps.needRotated, true))
      .orderBy(sql`${proxyIps.ip}::inet`, proxyIps.port);
    expect(counted.length).toBeGreaterThan(2 * BURNT_IPS_PAGE_SIZE);

    const listed: string[] = [];
    let after = '';
    for (;;) {
      const answer = await get(`/api/admin/stocks/isp${after ? `?after=${after}` : ''}`);
      expect(answer.statusCode, answer.body).toBe(200);
      const stock: IpStock = answer.json();
      expect(stock.burntIps).toBe(counted.length);
      expect(stock.recycles.length).toBeLessThanOrEqual(BURNT_IPS_PAGE_SIZE);
      listed.push(...stock.recycles.map((entry) => entry.ip));
      if (!stock.recyclesNext) break;
      after = stock.recyclesNext;
    }
    expect(listed).toEqual(counted.map((row) => row.ip));

    const file = await get('/api/admin/stocks/isp/burnt.txt');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^text\/plain/);
    expect(file.body).toBe(counted.map((row) => `${row.ip}\n`).join(''));
    expect((await get('/api/admin/stocks/isp?after=10.0.0.1')).statusCode).toBe(400);
    expect((await get('/api/admin/stocks/pk1/burnt.txt')).body).toBe('');
  });
});
