import { randomBytes } from 'node:crypto';
import {
  AUTHORIZED_IPS_MAX,
  type AuthorizedIps,
  authMessages,
  authorizedIpMessages,
  type CreatedApiKey,
} from '@storefront/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createTestApp, jsonHeaders, signUpCustomer, type TestApp } from '../../test/test-app.ts';

describe('authorised IPs and e-mail switches (Settings)', () => {
  let t: TestApp;
  let ann: { cookie: string; id: string };
  let bob: { cookie: string; id: string };

  const call = (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    cookie: string | undefined,
    payload?: object,
    extra = {},
  ) => callApi(t, method, url, { cookie, payload, headers: extra });
  const put = (cookie: string, body: object) => call('PUT', '/api/user/authorized-ips', cookie, body);

  beforeAll(async () => {
    t = await createTestApp();
    ann = await signUpCustomer(t, `ann-${randomBytes(3).toString('hex')}@example.com`);
    bob = await signUpCustomer(t, `bob-${randomBytes(3).toString('hex')}@example.com`);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists none at first, with the current address offered, and saves single public addresses in one spelling', async () => {
    const first = await call('GET', '/api/user/authorized-ips', ann.cookie, undefined, {
      'x-forwarded-for': '81.2.69.160',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json<AuthorizedIps>()).toMatchObject({ ips: [], onlyFromTheseIps: false });
    expect(first.json<AuthorizedIps>().currentIp).toEqual(expect.any(String));
    const saved = await put(ann.cookie, {
      ips: [' 81.2.69.160', '2001:DB8:0:0:0:0:0:1'.replace('DB8', '4860'), '::ffff:81.2.69.161', '81.2.69.160'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<AuthorizedIps>().ips).toEqual(['2001:4860::1', '81.2.69.160', '81.2.69.161']);
    const again = await call('GET', '/api/user/authorized-ips', ann.cookie);
    expect(again.json<AuthorizedIps>().ips).toEqual(['2001:4860::1', '81.2.69.160', '81.2.69.161']);
  });

  it('refuses what is not one public address with 400 and a sentence, and changes nothing', async () => {
    const cases: [unknown, string][] = [
      [['81.2.69.0/24'], authorizedIpMessages.notAnAddress('81.2.69.0/24')],
      [['shop.example.com'], authorizedIpMessages.notAnAddress('shop.example.com')],
      [['81.2.69.1:8080'], authorizedIpMessages.notAnAddress('81.2.69.1:8080')],
      [['127.0.0.1'], authorizedIpMessages.notPublic('127.0.0.1')],
      [['10.0.0.5'], authorizedIpMessages.notPublic('10.0.0.5')],
      [['::1'], authorizedIpMessages.notPublic('::1')],
      [['fe80::1'], authorizedIpMessages.notPublic('fe80::1')],
      [['192.0.2.1'], authorizedIpMessages.notPublic('192.0.2.1')],
      [Array.from({ length: AUTHORIZED_IPS_MAX + 1 }, (_, i) => `81.2.70.${i + 1}`), authorizedIpMessages.tooMany],
    ];
    for (const [ips, message] of cases) {
      const answer = await put(ann.cookie, { ips });
      expect(answer.statusCode, JSON.stringify(ips)).toBe(400);
      expect(answer.json().message, JSON.stringify(ips)).toBe(message);
    }
    const notAList = await put(ann.cookie, { ips: '81.2.69.1' });
    expect(notAList.statusCode).toBe(400);
    expect(notAList.json().message).toMatch(/^ips must be a list of addresses/);
    expect((await call('GET', '/api/user/authorized-ips', ann.cookie)).json<AuthorizedIps>().ips).toHaveLength(3);
  });

  it("answers 409 for an address another customer authorised, keeping both customers' lists", async () => {
    const answer = await put(bob.cookie, { ips: ['81.2.69.200', '81.2.69.160'] });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe(authorizedIpMessages.taken('81.2.69.160'));
    expect((await call('GET', '/api/user/authorized-ips', bob.cookie)).json<AuthorizedIps>().ips).toEqual([]);
    expect((await call('GET', '/api/user/authorized-ips', ann.cookie)).json<AuthorizedIps>().ips).toContain(
      '81.2.69.160',
    );
    // Once Ann takes it off, Bob may add it.
    expect((await put(ann.cookie, { ips: ['81.2.69.161'] })).statusCode).toBe(200);
    expect((await put(bob.cookie, { ips: ['81.2.69.160'] })).json<AuthorizedIps>().ips).toEqual(['81.2.69.160']);
  });

  it('turns "only from these IPs" on only with at least one IP', async () => {
    const empty = await put(ann.cookie, { ips: [], onlyFromTheseIps: true });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(authorizedIpMessages.onlyWithoutIps);
    const on = await put(ann.cookie, { ips: ['81.2.69.161'], onlyFromTheseIps: true });
    expect(on.json<AuthorizedIps>()).toMatchObject({ ips: ['81.2.69.161'], onlyFromTheseIps: true });
    expect((await put(ann.cookie, { ips: [] })).statusCode).toBe(400);
    const off = await put(ann.cookie, { ips: [], onlyFromTheseIps: false });
    expect(off.json<AuthorizedIps>()).toMatchObject({ ips: [], onlyFromTheseIps: false });
  });

  it('takes loopback and private addresses when the gateway may (GATEWAY_ALLOW_PRIVATE=true)', async () => {
    const open = await createTestApp({ GATEWAY_ALLOW_PRIVATE: 'true' });
    try {
      const carol = await signUpCustomer(open, `carol-${randomBytes(3).toString('hex')}@example.com`);
      const answer = await open.app.inject({
        method: 'PUT',
        url: '/api/user/authorized-ips',
        headers: { ...jsonHeaders, cookie: carol.cookie },
        payload: { ips: ['127.0.0.1', '::1'] },
      });
      expect(answer.json<AuthorizedIps>().ips).toEqual(['127.0.0.1', '::1']);
    } finally {
      await open.close();
    }
  });

  it('switches the usage e-mails and the recording of domains, each on by default and apart from the other', async () => {
    const read = async () => (await call('GET', '/api/user/preferences', ann.cookie)).json();
    expect(await read()).toEqual({ usageEmails: true, recordDomains: true });
    const off = await call('PUT', '/api/user/preferences', ann.cookie, { usageEmails: false });
    expect(off.json()).toEqual({ usageEmails: false, recordDomains: true });
    expect(await read()).toEqual({ usageEmails: false, recordDomains: true });
    const domains = await call('PUT', '/api/user/preferences', ann.cookie, { recordDomains: false });
    expect(domains.json()).toEqual({ usageEmails: false, recordDomains: false });
    expect(await read()).toEqual({ usageEmails: false, recordDomains: false });
    const bad = await call('PUT', '/api/user/preferences', ann.cookie, { usageEmails: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('usageEmails must be true or false.');
    const badDomains = await call('PUT', '/api/user/preferences', ann.cookie, { recordDomains: 1 });
    expect(badDomains.json().message).toBe('recordDomains must be true or false.');
  });

  it('needs a signed-in session: no session 401, an API key 401', async () => {
    expect((await call('GET', '/api/user/authorized-ips', undefined)).statusCode).toBe(401);
    const created = await call('POST', '/api/api-keys', ann.cookie, { name: 'tool' });
    const { key } = created.json<CreatedApiKey>();
    for (const [method, url] of [
      ['GET', '/api/user/authorized-ips'],
      ['PUT', '/api/user/authorized-ips'],
      ['GET', '/api/user/preferences'],
      ['PUT', '/api/user/preferences'],
    ] as const) {
      const answer = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(method === 'PUT' ? { payload: url.endsWith('ips') ? { ips: [] } : { usageEmails: true } } : {}),
      });
      expect(answer.statusCode, `${method} ${url}`).toBe(401);
      expect(answer.json().message).toBe(authMessages.authRequired);
    }
  });
});
