import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import {
  type AllowanceHistory,
  type AuthorizedIps,
  authorizedIpMessages,
  type CreatedApiKey,
  type CreatedProxyUser,
  PROXY_USER_HISTORY_PAGE_SIZE,
  PROXY_USERS_MAX,
  type ProxyUser,
  type ProxyUserList,
  parseResidentialLine,
  proxyUserMessages,
} from '@storefront/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizedIps, customerPreferences, emailOutbox, proxyUsers, residentialAccounts } from '../../db/schema.ts';
import { findSecrets } from '../../test/log-scan.ts';
import { testBrand } from '../../test/payments.ts';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../../test/test-app.ts';
import { queueProxyUserUsageEmails } from './proxy-user-usage-emails.ts';

type Who = { cookie: string; id: string; email: string };

describe('proxy users', () => {
  let t: TestApp;
  let log = '';
  let ann: Who;
  let bob: Who;
  let cid: Who;
  let annKey: string;

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    who: { cookie?: string; key?: string },
    payload?: object,
  ) => callApi(t, method, url, { ...who, payload });
  const create = (who: Who, body: object) => call('POST', '/api/proxy-users', who, body);
  const list = async (who: { cookie?: string; key?: string }) =>
    (await call('GET', '/api/proxy-users', who)).json<ProxyUserList>().proxyUsers;
  const patch = (who: Who, id: string, body: object) => call('PATCH', `/api/proxy-users/${id}`, who, body);
  const withAccount = async (who: Who, username: string) =>
    t.database.db
      .insert(residentialAccounts)
      .values({ userId: who.id, username, password: 'mainpass', totalKb: 10_240_000 });
  const signUp = async (name: string): Promise<Who> => {
    const email = `${name}-${randomBytes(3).toString('hex')}@example.com`;
    return { ...(await signUpCustomer(t, email)), email };
  };

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        log: new Writable({
          write(chunk, _encoding, done) {
            log += String(chunk);
            done();
          },
        }),
      },
    );
    ann = await signUp('ann');
    bob = await signUp('bob');
    cid = await signUp('cid');
    await withAccount(ann, 'resann');
    await withAccount(bob, 'resbob');
    annKey = (await call('POST', '/api/api-keys', ann, { name: 'reader' })).json<CreatedApiKey>().key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a proxy user with a generated password shown once, and lists it without the password', async () => {
    const answer = await create(ann, {
      name: 'team1',
      note: '<b>Lisa</b> & co',
      allowance: { type: 'total', limitInKb: 5_120_000 },
      countries: ['US', 'GB'],
      maxConnections: 50,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const created = answer.json<CreatedProxyUser>();
    expect(created.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(created).toMatchObject({
      name: 'team1',
      username: 'resann_team1',
      note: '<b>Lisa</b> & co',
      paused: false,
      allowance: { type: 'total', limitInKb: 5_120_000, resetDay: null },
      usedInKb: 0,
      periodUsedInKb: 0,
      countries: ['US', 'GB'],
      maxConnections: 50,
      authorizedIps: [],
    });
    const listed = await list(ann);
    expect(listed.map((user) => user.name)).toEqual(['team1']);
    expect(JSON.stringify(listed)).not.toContain(created.password);
    expect(listed[0]).not.toHaveProperty('password');
    // Shown again on request, and a chosen password is kept as given.
    const shown = await call('GET', `/api/proxy-users/${created.id}/password`, ann);
    expect(shown.json()).toEqual({ password: created.password });
    const chosen = await create(ann, { name: 'team2', password: 'Chosen123' });
    expect(chosen.statusCode).toBe(201);
    expect(chosen.json<CreatedProxyUser>().password).toBe('Chosen123');
    const another = (await create(ann, { name: 'team3' })).json<CreatedProxyUser>().password;
    expect(another).not.toBe(created.password);
    // Never logged: not the generated, the chosen nor the shown one.
    for (const password of [created.password, 'Chosen123', another]) expect(log).not.toContain(password);
    expect(log).toContain('/api/proxy-users');
  });

  it('refuses a bad name, password, note, allowance, country or connection limit with 400 in words', async () => {
    const cases: [object, string][] = [
      [{ name: 'Team' }, proxyUserMessages.nameRule],
      [{ name: '' }, proxyUserMessages.nameRule],
      [{ name: 'a'.repeat(25) }, proxyUserMessages.nameRule],
      [{ name: 'with_underscore' }, proxyUserMessages.nameRule],
      [{ name: 'ok1', password: 'short1' }, proxyUserMessages.passwordRule],
      [{ name: 'ok1', password: 'a'.repeat(33) }, proxyUserMessages.passwordRule],
      [{ name: 'ok1', password: 'with space1' }, proxyUserMessages.passwordRule],
      [{ name: 'ok1', note: 'x'.repeat(501) }, proxyUserMessages.noteTooLong],
      [{ name: 'ok1', allowance: { type: 'total' } }, proxyUserMessages.allowanceShape],
      [{ name: 'ok1', allowance: { type: 'monthly', limitInKb: 1000 } }, proxyUserMessages.allowanceShape],
      [{ name: 'ok1', allowance: { type: 'monthly', limitInKb: 1000, resetDay: 29 } }, proxyUserMessages.resetDayRule],
      [{ name: 'ok1', allowance: { type: 'total', limitInKb: -1 } }, proxyUserMessages.allowanceAmount],
      [{ name: 'ok1', allowance: { type: 'none', limitInKb: 5 } }, proxyUserMessages.allowanceShape],
      [{ name: 'ok1', countries: ['XX'] }, proxyUserMessages.countryUnknown('XX')],
      [{ name: 'ok1', maxConnections: 0 }, proxyUserMessages.maxConnectionsRule],
      [{ name: 'ok1', maxConnections: 10_001 }, proxyUserMessages.maxConnectionsRule],
      [
        { name: 'ok1', authorizedIps: ['81.2.69.1', '81.2.69.2', '81.2.69.3', '81.2.69.4'] },
        proxyUserMessages.ipsTooMany,
      ],
      [{ name: 'ok1', authorizedIps: ['10.0.0.1'] }, authorizedIpMessages.notPublic('10.0.0.1')],
    ];
    for (const [body, message] of cases) {
      const answer = await create(ann, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().message, JSON.stringify(body)).toBe(message);
    }
    expect((await list(ann)).map((user) => user.name)).toEqual(['team1', 'team2', 'team3']);
  });

  it('refuses a name the account already has (409), not one another account has, and 404s without residential data', async () => {
    const duplicate = await create(ann, { name: 'team1' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe(proxyUserMessages.nameTaken('team1'));
    const renamed = await patch(ann, (await list(ann))[1]?.id ?? '', { name: 'team1' });
    expect(renamed.statusCode).toBe(409);
    expect((await create(bob, { name: 'team1' })).statusCode).toBe(201);
    const none = await create(cid, { name: 'team1' });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(proxyUserMessages.noResidentialData);
    expect(await list(cid)).toEqual([]);
  });

  it("answers 404 for another customer's proxy user on every call, changing nothing", async () => {
    const [target] = await list(ann);
    const id = target?.id ?? '';
    const calls = [
      call('PATCH', `/api/proxy-users/${id}`, bob, { paused: true, name: 'stolen' }),
      call('GET', `/api/proxy-users/${id}/password`, bob),
      call('POST', `/api/proxy-users/${id}/password`, bob, {}),
      call('GET', `/api/proxy-users/${id}/allowance-changes`, bob),
      call('DELETE', `/api/proxy-users/${id}`, bob),
      call('PATCH', `/api/proxy-users/${randomUUID()}`, ann, { paused: true }),
    ];
    for (const answer of await Promise.all(calls)) {
      expect(answer.statusCode, answer.body).toBe(404);
      expect(answer.json().message).toBe(proxyUserMessages.notFound);
    }
    expect((await list(ann))[0]).toEqual(target);
  });

  it('lets an API key read the list and the history, and refuses it every change (401)', async () => {
    const [target] = await list(ann);
    const id = target?.id ?? '';
    expect((await list({ key: annKey })).map((user) => user.name)).toEqual(['team1', 'team2', 'team3']);
    expect((await call('GET', `/api/proxy-users/${id}/allowance-changes`, { key: annKey })).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', '/api/proxy-users', { name: 'bykey' }],
      ['PATCH', `/api/proxy-users/${id}`, { paused: true }],
      ['GET', `/api/proxy-users/${id}/password`, undefined],
      ['POST', `/api/proxy-users/${id}/password`, {}],
      ['DELETE', `/api/proxy-users/${id}`, undefined],
    ] as const) {
      const answer = await call(method, url, { key: annKey }, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await list(ann))[0]).toEqual(target);
  });

  it("gives a proxy user's lines by list link (with a key), and none for a name the account does not have", async () => {
    const lines = async (user: string) =>
      (
        await call('GET', `/api/proxy-list?product=residential_proxies&count=3&country=GB&user=${user}`, {
          key: annKey,
        })
      ).body
        .split('\n')
        .filter(Boolean);
    const team1 = await lines('team1');
    expect(team1).toHaveLength(3);
    const password = (await call('GET', `/api/proxy-users/${(await list(ann))[0]?.id}/password`, ann)).json().password;
    for (const line of team1) {
      expect(parseResidentialLine(line)).toMatchObject({ username: 'resann_team1', country: 'GB', password });
    }
    expect(await lines('nobody')).toEqual([]);
    // Another customer's proxy user of the same name gives bob's lines to bob only.
    expect(await lines('team1')).not.toContain('resbob_team1');
    const bad = await call('GET', '/api/proxy-list?product=residential_proxies&user=Team', { key: annKey });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(proxyUserMessages.nameRule);
  });

  it('renames, changes the note, pauses and resumes, and gives a new password', async () => {
    const [, second] = await list(ann);
    const id = second?.id ?? '';
    const renamed = await patch(ann, id, { name: 'renamed', note: '  ', paused: true });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<ProxyUser>()).toMatchObject({
      name: 'renamed',
      username: 'resann_renamed',
      note: null,
      paused: true,
    });
    expect((await patch(ann, id, { paused: false })).json<ProxyUser>().paused).toBe(false);
    const generated = await call('POST', `/api/proxy-users/${id}/password`, ann, {});
    expect(generated.json().password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(generated.json().password).not.toBe('Chosen123');
    const chosen = await call('POST', `/api/proxy-users/${id}/password`, ann, { password: 'NewOne99' });
    expect(chosen.json()).toEqual({ password: 'NewOne99' });
    expect((await call('GET', `/api/proxy-users/${id}/password`, ann)).json()).toEqual({ password: 'NewOne99' });
    const bad = await call('POST', `/api/proxy-users/${id}/password`, ann, { password: 'no!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(proxyUserMessages.passwordRule);
    expect(log).not.toContain('NewOne99');
    expect(log).not.toContain(generated.json().password);
    expect(findSecrets(log)).toEqual([]);
  });

  it('refuses a cap below what was used this period, and a new monthly cap counts from now', async () => {
    const created = (
      await create(ann, { name: 'capped', allowance: { type: 'total', limitInKb: 2_048_000 } })
    ).json<ProxyUser>();
    const { db } = t.database;
    await db.update(proxyUsers).set({ usedKb: 1_500_000 }).where(eq(proxyUsers.id, created.id));
    const below = await patch(ann, created.id, { allowance: { type: 'total', limitInKb: 1_024_000 } });
    expect(below.statusCode).toBe(400);
    expect(below.json().message).toBe(proxyUserMessages.capBelowUsed(1_500_000));
    expect((await patch(ann, created.id, { allowance: { type: 'total', limitInKb: 1_500_000 } })).statusCode).toBe(200);
    // Monthly on day 1: the period starts again now, so nothing is used in it yet and a small cap is accepted.
    const monthly = await patch(ann, created.id, { allowance: { type: 'monthly', limitInKb: 1000, resetDay: 1 } });
    expect(monthly.statusCode, monthly.body).toBe(200);
    const start = (await db.execute(sql`select proxy_user_period_start(1, now())::text as s`)) as unknown as {
      rows: { s: string }[];
    };
    expect(monthly.json<ProxyUser>()).toMatchObject({
      periodUsedInKb: 0,
      periodStart: start.rows[0]?.s,
      usedInKb: 1_500_000,
    });
    // What it used in this period counts: a cap below it is refused; on the same reset day the period is kept.
    await db.update(proxyUsers).set({ periodUsedKb: 900 }).where(eq(proxyUsers.id, created.id));
    const belowMonth = await patch(ann, created.id, { allowance: { type: 'monthly', limitInKb: 800, resetDay: 1 } });
    expect(belowMonth.statusCode).toBe(400);
    expect(belowMonth.json().message).toBe(proxyUserMessages.capBelowUsed(900));
    const raised = await patch(ann, created.id, { allowance: { type: 'monthly', limitInKb: 2000, resetDay: 1 } });
    expect(raised.json<ProxyUser>().periodUsedInKb).toBe(900);
    // A period written before the current one counts nothing.
    await db.update(proxyUsers).set({ periodStart: '2000-01-01' }).where(eq(proxyUsers.id, created.id));
    expect((await list(ann)).find((user) => user.id === created.id)?.periodUsedInKb).toBe(0);
    expect(
      (await patch(ann, created.id, { allowance: { type: 'monthly', limitInKb: 10, resetDay: 1 } })).statusCode,
    ).toBe(200);
    // No cap: always allowed.
    expect((await patch(ann, created.id, { allowance: { type: 'none' } })).json<ProxyUser>().allowance).toEqual({
      type: 'none',
      limitInKb: null,
      resetDay: null,
    });
  });

  it('keeps every change of an allowance with when, who, from and to, newest first, by page', async () => {
    const created = (
      await create(ann, { name: 'history', allowance: { type: 'total', limitInKb: 1000 } })
    ).json<ProxyUser>();
    const url = `/api/proxy-users/${created.id}/allowance-changes`;
    const first = (await call('GET', url, ann)).json<AllowanceHistory>();
    expect(first.changes).toHaveLength(1);
    expect(first.changes[0]).toMatchObject({
      changedBy: ann.email,
      from: { type: 'none', limitInKb: null, resetDay: null },
      to: { type: 'total', limitInKb: 1000, resetDay: null },
    });
    // The same allowance again, or a change of something else, is no change of the allowance.
    await patch(ann, created.id, { allowance: { type: 'total', limitInKb: 1000 }, note: 'n' });
    expect((await call('GET', url, ann)).json<AllowanceHistory>().changes).toHaveLength(1);
    for (let i = 1; i <= PROXY_USER_HISTORY_PAGE_SIZE + 4; i++)
      expect((await patch(ann, created.id, { allowance: { type: 'total', limitInKb: 1000 + i } })).statusCode).toBe(
        200,
      );
    const page1 = (await call('GET', url, ann)).json<AllowanceHistory>();
    expect(page1.changes).toHaveLength(PROXY_USER_HISTORY_PAGE_SIZE);
    expect(page1.changes[0]?.to.limitInKb).toBe(1000 + PROXY_USER_HISTORY_PAGE_SIZE + 4);
    expect(page1.changes[0]?.from.limitInKb).toBe(1000 + PROXY_USER_HISTORY_PAGE_SIZE + 3);
    expect(page1.next).toEqual(expect.any(String));
    const page2 = (
      await call('GET', `${url}?before=${encodeURIComponent(page1.next ?? '')}`, ann)
    ).json<AllowanceHistory>();
    expect(page2.changes).toHaveLength(5);
    expect(page2.next).toBeNull();
    const all = [...page1.changes, ...page2.changes];
    expect(new Set(all.map((change) => change.id)).size).toBe(PROXY_USER_HISTORY_PAGE_SIZE + 5);
    expect(all.at(-1)?.from.type).toBe('none');
    const bad = await call('GET', `${url}?before=nonsense`, ann);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('before is the position a previous page gave as next.');
  });

  it('gives a proxy user at most 3 IPs, each held by one user in the whole shop, and keeps them when the main list is saved', async () => {
    const [team1, renamed] = await list(ann);
    const withIps = await patch(ann, team1?.id ?? '', { authorizedIps: ['81.2.69.10', '::ffff:81.2.69.11'] });
    expect(withIps.statusCode, withIps.body).toBe(200);
    expect(withIps.json<ProxyUser>().authorizedIps).toEqual(['81.2.69.10', '81.2.69.11']);
    // Another of ann's proxy users, ann's main user, another customer: each refused in words.
    const own = await patch(ann, renamed?.id ?? '', { authorizedIps: ['81.2.69.10'] });
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toBe(proxyUserMessages.ipTaken('81.2.69.10'));
    const main = await call('PUT', '/api/user/authorized-ips', ann, { ips: ['81.2.69.11'] });
    expect(main.statusCode).toBe(409);
    expect(main.json().message).toBe(proxyUserMessages.ipTaken('81.2.69.11'));
    const other = await call('PUT', '/api/user/authorized-ips', bob, { ips: ['81.2.69.10'] });
    expect(other.json().message).toBe(authorizedIpMessages.taken('81.2.69.10'));
    const bobs = (await list(bob))[0];
    const otherProxy = await patch(bob, bobs?.id ?? '', { authorizedIps: ['81.2.69.11'] });
    expect(otherProxy.statusCode).toBe(409);
    expect(otherProxy.json().message).toBe(authorizedIpMessages.taken('81.2.69.11'));
    await call('PUT', '/api/user/authorized-ips', bob, { ips: ['81.2.69.50'] });
    const mainTaken = await patch(ann, renamed?.id ?? '', { authorizedIps: ['81.2.69.50'] });
    expect(mainTaken.json().message).toBe(authorizedIpMessages.taken('81.2.69.50'));
    // The main list reads and replaces the main user's addresses only.
    const saved = await call('PUT', '/api/user/authorized-ips', ann, { ips: ['81.2.69.20'] });
    expect(saved.json<AuthorizedIps>().ips).toEqual(['81.2.69.20']);
    const cleared = await call('PUT', '/api/user/authorized-ips', ann, { ips: [] });
    expect(cleared.json<AuthorizedIps>().ips).toEqual([]);
    expect((await list(ann))[0]?.authorizedIps).toEqual(['81.2.69.10', '81.2.69.11']);
    const rows = await t.database.db.select().from(authorizedIps).where(eq(authorizedIps.userId, ann.id));
    expect(rows.map((row) => row.ip).sort()).toEqual(['81.2.69.10', '81.2.69.11']);
    // Replaced by the list given; an empty list frees them.
    const replaced = await patch(ann, team1?.id ?? '', { authorizedIps: ['81.2.69.11', '81.2.69.12', '81.2.69.13'] });
    expect(replaced.json<ProxyUser>().authorizedIps).toEqual(['81.2.69.11', '81.2.69.12', '81.2.69.13']);
    expect((await patch(ann, renamed?.id ?? '', { authorizedIps: ['81.2.69.10'] })).statusCode).toBe(200);
  });

  it('deletes softly: gone from the list, its row and name kept, its IPs and name free again', async () => {
    const target = (await list(ann)).find((user) => user.name === 'renamed');
    const id = target?.id ?? '';
    expect((await call('DELETE', `/api/proxy-users/${id}`, ann)).statusCode).toBe(204);
    expect((await list(ann)).some((user) => user.id === id)).toBe(false);
    const [row] = await t.database.db.select().from(proxyUsers).where(eq(proxyUsers.id, id));
    expect(row?.name).toBe('renamed');
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(await t.database.db.select().from(authorizedIps).where(eq(authorizedIps.proxyUserId, id))).toEqual([]);
    expect((await call('GET', `/api/proxy-users/${id}/password`, ann)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/proxy-users/${id}`, ann)).statusCode).toBe(404);
    const again = await create(ann, { name: 'renamed', authorizedIps: ['81.2.69.10'] });
    expect(again.statusCode, again.body).toBe(201);
  });

  it(`allows at most ${PROXY_USERS_MAX} live proxy users; a deleted one frees its place`, async () => {
    const live = (await list(ann)).length;
    await t.database.db.insert(proxyUsers).values(
      Array.from({ length: PROXY_USERS_MAX - live - 1 }, (_, i) => ({
        id: randomUUID(),
        userId: ann.id,
        name: `bulk${i}`,
        password: 'bulkpass1',
      })),
    );
    expect((await create(ann, { name: 'last' })).statusCode).toBe(201);
    const over = await create(ann, { name: 'over' });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(proxyUserMessages.limitReached);
    expect(await list(ann)).toHaveLength(PROXY_USERS_MAX);
    const bulk = (await list(ann)).find((user) => user.name === 'bulk0');
    await call('DELETE', `/api/proxy-users/${bulk?.id}`, ann);
    expect((await create(ann, { name: 'over' })).statusCode).toBe(201);
  });

  describe('usage e-mails', () => {
    const queue = () => queueProxyUserUsageEmails({ db: t.database.db, brand: testBrand });
    const mailsOf = async (id: string) =>
      (
        await t.database.db
          .select({
            key: emailOutbox.dedupeKey,
            to: emailOutbox.toAddress,
            subject: emailOutbox.subject,
            text: emailOutbox.text,
            html: emailOutbox.html,
          })
          .from(emailOutbox)
      ).filter((row) => row.key.includes(id));
    const use = (id: string, values: { usedKb?: number; periodUsedKb?: number; periodStart?: string }) =>
      t.database.db.update(proxyUsers).set(values).where(eq(proxyUsers.id, id));

    it('writes 80 % and 100 % once per allowance level, naming the proxy user, to the customer', async () => {
      const created = (
        await create(bob, { name: 'mailtotal', allowance: { type: 'total', limitInKb: 1000 } })
      ).json<ProxyUser>();
      await use(created.id, { usedKb: 790 });
      await queue();
      expect(await mailsOf(created.id)).toEqual([]);
      await use(created.id, { usedKb: 800 });
      await queue();
      await queue();
      const eighty = await mailsOf(created.id);
      expect(eighty.map((mail) => mail.key)).toEqual([`proxy-user-usage:80:${created.id}:total:1000`]);
      expect(eighty[0]).toMatchObject({
        to: bob.email,
        subject: 'Proxy user mailtotal has used 80 % of its allowance',
      });
      expect(eighty[0]?.text).toContain('Your proxy user mailtotal has used 0.001 GB of its 0.001 GB allowance.');
      await use(created.id, { usedKb: 1000 });
      await queue();
      await queue();
      expect((await mailsOf(created.id)).map((mail) => mail.key)).toEqual([
        `proxy-user-usage:80:${created.id}:total:1000`,
        `proxy-user-usage:100:${created.id}:total:1000`,
      ]);
      // A raised cap makes both due again when reached.
      await patch(bob, created.id, { allowance: { type: 'total', limitInKb: 1200 } });
      await queue();
      expect((await mailsOf(created.id)).map((mail) => mail.key)).toContain(
        `proxy-user-usage:80:${created.id}:total:1200`,
      );
    });

    it('writes them once per monthly period, and not when the customer turned usage e-mails off', async () => {
      const created = (
        await create(bob, { name: 'mailmonth', allowance: { type: 'monthly', limitInKb: 1000, resetDay: 1 } })
      ).json<ProxyUser>();
      const start = created.periodStart ?? '';
      await use(created.id, { periodUsedKb: 1000 });
      await queue();
      await queue();
      const mails = await mailsOf(created.id);
      expect(mails.map((mail) => mail.key)).toEqual([`proxy-user-usage:100:${created.id}:monthly:1000:${start}`]);
      expect(mails[0]?.subject).toBe('Proxy user mailmonth has used its allowance this month');
      // Only in the current period: what a past one used is not this month's.
      const old = (
        await create(bob, { name: 'mailold', allowance: { type: 'monthly', limitInKb: 1000, resetDay: 1 } })
      ).json<ProxyUser>();
      await use(old.id, { periodUsedKb: 1000, periodStart: '2000-01-01' });
      await queue();
      expect(await mailsOf(old.id)).toEqual([]);
      // Switched off: nothing, even when due.
      await t.database.db.insert(customerPreferences).values({ userId: bob.id, usageEmails: false });
      const quiet = (
        await create(bob, { name: 'quiet', allowance: { type: 'total', limitInKb: 1000 } })
      ).json<ProxyUser>();
      await use(quiet.id, { usedKb: 1000 });
      await queue();
      expect(await mailsOf(quiet.id)).toEqual([]);
    });
  });
});
