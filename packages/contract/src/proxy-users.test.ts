import { describe, expect, it } from 'vitest';
import { describeAllowance, PROXY_USER_NAME_PATTERN, proxyUserMessages } from './proxy-users.ts';
import { generateResidentialList, parseResidentialLine, proxyUserUsername } from './residential.ts';
import { createProxyUserRequestSchema, proxyUserAllowanceSchema } from './schemas/proxy-users.ts';

describe('proxy users in the contract', () => {
  it("writes a proxy user's gateway username, which the gateway reads back with its targeting", () => {
    expect(proxyUserUsername('resab12cd34ef', 'team1')).toBe('resab12cd34ef_team1');
    const [line] = generateResidentialList(
      { endpoint: 'gw.example.com:7777', username: proxyUserUsername('resab12cd34ef', 'team1'), password: 'Pass1234' },
      { count: 1, type: 'static', country: 'GB' },
    );
    expect(parseResidentialLine(line ?? '')).toMatchObject({
      username: 'resab12cd34ef_team1',
      country: 'GB',
      type: 'static',
      password: 'Pass1234',
    });
  });

  it('takes names of 1 to 24 lower-case letters and digits only', () => {
    for (const name of ['a', 'team1', 'x'.repeat(24)]) expect(PROXY_USER_NAME_PATTERN.test(name)).toBe(true);
    for (const name of ['', 'Team', 'a_b', 'a-b', 'x'.repeat(25), 'é']) {
      expect(PROXY_USER_NAME_PATTERN.test(name)).toBe(false);
      const parsed = createProxyUserRequestSchema.safeParse({ name });
      expect(parsed.error?.issues[0]?.message).toBe(proxyUserMessages.nameRule);
    }
  });

  it('reads an allowance in one shape and says it in words', () => {
    expect(proxyUserAllowanceSchema.parse({ type: 'none' })).toEqual({ type: 'none', limitInKb: null, resetDay: null });
    expect(proxyUserAllowanceSchema.safeParse({ type: 'total', limitInKb: 5, resetDay: 3 }).success).toBe(false);
    expect(proxyUserAllowanceSchema.safeParse({ type: 'monthly', limitInKb: 5 }).success).toBe(false);
    expect(describeAllowance({ allowance: 'none', allowanceInKb: null, resetDay: null })).toBe('No cap');
    expect(describeAllowance({ allowance: 'total', allowanceInKb: 5_120_000, resetDay: null })).toBe(
      '5.000 GB in total',
    );
    expect(describeAllowance({ allowance: 'monthly', allowanceInKb: 1_024_000, resetDay: 3 })).toBe(
      '1.000 GB a month, from day 3',
    );
  });
});
