import { AUDIT_PAGE_SIZE, type AuditLog } from '@storefront/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog } from '../../db/schema.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';

describe('the audit log, a page at a time', () => {
  let t: TestApp;
  let boss: { cookie: string; id: string };
  let carl: { cookie: string; id: string };
  const read = async (query: string, cookie = boss.cookie) =>
    callApi(t, 'GET', `/api/admin/audit-log${query ? `?${query}` : ''}`, { cookie });
  const page = async (query: string) => (await read(query)).json() as AuditLog;
  /** Every entry the filter finds, following `next` page after page. */
  const everything = async (filter: string) => {
    const seen: string[] = [];
    let next: string | null = '';
    while (next !== null) {
      const answer: AuditLog = await page(
        [filter, next ? `before=${encodeURIComponent(next)}` : ''].filter(Boolean).join('&'),
      );
      seen.push(...answer.entries.map((entry) => entry.summary));
      next = answer.next;
    }
    return seen;
  };

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'boss@example.com', AUTH_RATE_LIMIT_PER_IP: '1000', SEED_DEMO: 'false' });
    boss = await signUpCustomer(t, 'boss@example.com');
    carl = await signUpCustomer(t, 'carl@example.com');
    const base = Date.parse('2026-11-10T12:00:00Z');
    await t.database.db.insert(adminAuditLog).values(
      Array.from({ length: 60 }, (_, i) => ({
        actorUserId: boss.id,
        actorEmail: i % 3 === 0 ? 'other-admin@example.com' : 'boss@example.com',
        action: i % 2 === 0 ? 'feature.toggle' : 'ips.upload',
        summary: `change ${i}`,
        // Twelve hours apart, back from 10 November.
        createdAt: new Date(base - i * 12 * 3_600_000),
      })),
    );
    // Two entries in the same millisecond, a few microseconds apart: a page boundary between them loses neither.
    await t.database.db.execute(
      `insert into admin_audit_log (actor_user_id, actor_email, action, summary, created_at) values
       ('${boss.id}', 'boss@example.com', 'sandbox.clock', 'micro 1', '2026-11-20T00:00:00.000001Z'),
       ('${boss.id}', 'boss@example.com', 'sandbox.clock', 'micro 2', '2026-11-20T00:00:00.000002Z')`,
    );
  });
  afterAll(() => t.close());

  it('pages newest first by position, every entry once, and says there is no more at the end', async () => {
    const first = await page('');
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.entries.slice(0, 2).map((entry) => entry.summary)).toEqual(['micro 2', 'micro 1']);
    expect(first.next).not.toBeNull();
    const all = await everything('');
    expect(all).toHaveLength(62);
    expect(new Set(all).size).toBe(62);
    const times = (await page('')).entries.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('keeps entries a microsecond apart on either side of a page boundary', async () => {
    const [newest] = (await page('action=sandbox.clock')).entries;
    expect(newest?.summary).toBe('micro 2');
    const position = `2026-11-20T00:00:00.000002Z~${newest?.id}`;
    const after = await page(`action=sandbox.clock&before=${encodeURIComponent(position)}`);
    expect(after.entries.map((entry) => entry.summary)).toEqual(['micro 1']);
    expect(after.next).toBeNull();
  });

  it('filters by action, administrator and days in the reader time zone', async () => {
    expect(await everything('action=ips.upload')).toHaveLength(30);
    expect(await everything('actor=Other-Admin@Example.com')).toHaveLength(20);
    expect(await everything('action=ips.upload&actor=other-admin@example.com')).toHaveLength(10);
    // 2026-11-20 in UTC holds the two microsecond entries; in Tokyo it begins at 15:00 UTC the day before.
    expect(await everything('from=2026-11-20&to=2026-11-20')).toEqual(['micro 2', 'micro 1']);
    expect(await everything('from=2026-11-19&to=2026-11-19&timeZone=Asia/Tokyo')).toEqual([]);
    expect(await everything('from=2026-11-20&to=2026-11-20&timeZone=Asia/Tokyo')).toEqual(['micro 2', 'micro 1']);
    expect(await everything('from=2026-11-21')).toEqual([]);
  });

  it('refuses a bad filter or position with words, and lets only administrators read', async () => {
    for (const [query, words] of [
      ['action=nope', /^action is one of/],
      ['before=2', /^before is the position/],
      ['from=yesterday', /^from is a day/],
      ['from=2026-11-20&to=2026-11-19', /^The first day comes before the last/],
      ['timeZone=Mars/Olympus', /^timeZone is an IANA time zone/],
    ] as const) {
      const refused = await read(query);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().message, query).toMatch(words);
    }
    expect((await read('', carl.cookie)).statusCode).toBe(403);
    expect((await callApi(t, 'GET', '/api/admin/audit-log')).statusCode).toBe(401);
  });
});
