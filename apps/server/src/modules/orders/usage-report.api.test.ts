import { randomUUID } from 'node:crypto';
import type { CreatedApiKey, UsageReport } from '@storefront/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyUsers, residentialAccounts, residentialUsageDomains, residentialUsageHourly } from '../../db/schema.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';

/** GET /api/usage: a customer's usage statistics from what the gateway recorded. */
describe('usage statistics', () => {
  let t: TestApp;
  let ann: { cookie: string; id: string };
  let bob: { cookie: string; id: string };
  let key: CreatedApiKey;
  const scraperId = randomUUID();
  const goneId = randomUUID();
  // A fixed day: 2026-11-20 in UTC; Tokyo is 9 hours ahead.
  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    t = await createTestApp();
    ann = await signUpCustomer(t, 'usage-ann@example.com');
    bob = await signUpCustomer(t, 'usage-bob@example.com');
    const db = t.database.db;
    await db.insert(residentialAccounts).values([
      { userId: ann.id, username: 'resann', password: 'p', totalKb: 10_000, usedKb: 4000 },
      { userId: bob.id, username: 'resbob', password: 'p', totalKb: 10_000 },
    ]);
    await db.insert(proxyUsers).values([
      { id: scraperId, userId: ann.id, name: 'scraper', password: 'secret123' },
      { id: goneId, userId: ann.id, name: 'gone', password: 'secret123', deletedAt: new Date() },
    ]);
    await db.insert(residentialUsageHourly).values([
      {
        userId: ann.id,
        hour: at('2026-11-20T01:00:00Z'),
        country: 'US',
        uploadBytes: 100,
        downloadBytes: 900,
        connections: 2,
      },
      {
        userId: ann.id,
        hour: at('2026-11-20T01:00:00Z'),
        proxyUserId: scraperId,
        country: 'DE',
        downloadBytes: 3000,
        connections: 5,
      },
      { userId: ann.id, hour: at('2026-11-20T20:00:00Z'), proxyUserId: goneId, downloadBytes: 500, connections: 1 },
      { userId: ann.id, hour: at('2026-11-18T12:00:00Z'), country: 'US', downloadBytes: 7000, connections: 1 },
      { userId: bob.id, hour: at('2026-11-20T01:00:00Z'), country: 'FR', downloadBytes: 99_999, connections: 9 },
    ]);
    await db.insert(residentialUsageDomains).values([
      ...Array.from({ length: 22 }, (_, n) => ({
        userId: ann.id,
        day: '2026-11-20',
        domain: `site${String(n).padStart(2, '0')}.com`,
        downloadBytes: 1000 - n,
        connections: 1,
      })),
      { userId: ann.id, day: '2026-11-20', domain: '', downloadBytes: 5, connections: 1 },
    ]);
    key = (await callApi(t, 'POST', '/api/api-keys', { cookie: ann.cookie, payload: { name: 'stats' } })).json();
  });
  afterAll(async () => {
    await t.close();
  });

  const report = async (query: string, auth: { cookie?: string; key?: string } = { cookie: ann.cookie }) => {
    const response = await callApi(t, 'GET', `/api/usage?${query}`, auth);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<UsageReport>();
  };

  it('sums a custom range by day in UTC: totals, series, users (deleted ones by name), countries and domains', async () => {
    const answer = await report('range=custom&from=2026-11-18&to=2026-11-20');
    expect(answer).toMatchObject({ from: '2026-11-18', to: '2026-11-20', timeZone: 'UTC', by: 'day' });
    expect(answer.summary).toEqual({
      bytes: 11_500,
      connections: 9,
      leftKb: 6000,
      bytesPerDay: Math.round(11_500 / 3),
    });
    expect(answer.series).toEqual([
      { start: '2026-11-18T00:00:00Z', bytes: 7000, connections: 1 },
      { start: '2026-11-19T00:00:00Z', bytes: 0, connections: 0 },
      { start: '2026-11-20T00:00:00Z', bytes: 4500, connections: 8 },
    ]);
    expect(answer.users).toEqual([
      { proxyUserId: null, name: 'main', deleted: false, bytes: 8000, connections: 3 },
      { proxyUserId: scraperId, name: 'scraper', deleted: false, bytes: 3000, connections: 5 },
      { proxyUserId: goneId, name: 'gone', deleted: true, bytes: 500, connections: 1 },
    ]);
    expect(answer.countries).toEqual([
      { country: 'US', bytes: 8000, connections: 3 },
      { country: 'DE', bytes: 3000, connections: 5 },
      { country: '', bytes: 500, connections: 1 },
    ]);
    // The 20 largest, then the rest together.
    expect(answer.domains).toHaveLength(20);
    expect(answer.domains[0]).toEqual({ domain: 'site00.com', bytes: 1000, connections: 1 });
    expect(answer.otherDomains).toEqual({ count: 3, bytes: 980 + 979 + 5, connections: 3 });
  });

  it("follows the customer's zone: the same hours fall on other days in Tokyo, and by hour", async () => {
    const tokyo = await report('range=custom&from=2026-11-20&to=2026-11-21&timeZone=Asia/Tokyo');
    // 2026-11-20T01:00Z is 10:00 on the 20th in Tokyo; 20:00Z is 05:00 on the 21st.
    expect(tokyo.series.map((row) => [row.start, row.bytes])).toEqual([
      ['2026-11-19T15:00:00Z', 4000],
      ['2026-11-20T15:00:00Z', 500],
    ]);
    const hours = await report('range=custom&from=2026-11-20&to=2026-11-20&by=hour');
    expect(hours.series).toHaveLength(24);
    expect(hours.series[1]).toEqual({ start: '2026-11-20T01:00:00Z', bytes: 4000, connections: 7 });
  });

  it('filters by proxy user and country, and answers an API key the same', async () => {
    const scraper = await report(`range=custom&from=2026-11-18&to=2026-11-20&user=${scraperId}`, { key: key.key });
    expect(scraper.summary.bytes).toBe(3000);
    expect(scraper.users.map((row) => row.name)).toEqual(['scraper']);
    const main = await report('range=custom&from=2026-11-18&to=2026-11-20&user=main&country=US');
    expect(main.summary).toMatchObject({ bytes: 8000, connections: 3 });
  });

  it("never shows another customer's use; refuses a bad query in words and a visitor; nothing for an account without data", async () => {
    const bobs = await report('range=custom&from=2026-11-20&to=2026-11-20', { cookie: bob.cookie });
    expect(bobs.summary.bytes).toBe(99_999);
    const annAsBob = await report(`range=custom&from=2026-11-20&to=2026-11-20&user=${scraperId}`, {
      cookie: bob.cookie,
    });
    expect(annAsBob.summary.bytes).toBe(0);
    for (const [query, message] of [
      ['range=year', 'range is one of today, 7d, 30d, month, custom.'],
      ['range=custom&from=2026-11-01', 'A custom range needs from and to.'],
      ['range=custom&from=2026-11-20&to=2026-11-01', 'The first day comes before the last.'],
      ['range=custom&from=2026-01-01&to=2026-11-01', 'A custom range is at most 90 days.'],
      ['timeZone=Mars/Olympus', 'timeZone is an IANA time zone.'],
      ['country=usa', 'country is a two-letter code such as US.'],
    ]) {
      const refused = await callApi(t, 'GET', `/api/usage?${query}`, { cookie: ann.cookie });
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().message).toContain(message);
    }
    expect((await callApi(t, 'GET', '/api/usage')).statusCode).toBe(401);
    const carol = await signUpCustomer(t, 'usage-carol@example.com');
    const none = await report('range=30d', { cookie: carol.cookie });
    expect(none.summary).toEqual({ bytes: 0, connections: 0, leftKb: 0, bytesPerDay: 0 });
    expect(none.series).toHaveLength(30);
  });
});
