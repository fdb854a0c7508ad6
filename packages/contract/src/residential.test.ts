import { describe, expect, it } from 'vitest';
import {
  COUNTRY_OPTIONS,
  GENERATOR_COUNT_MAX,
  generateResidentialList,
  newSessionId,
  parseResidentialLine,
  residentialLine,
} from './residential.ts';

const credentials = { endpoint: 'gw.example.com:8080', username: 'res0a1b2c3d4e', password: 'p4ss:word' };

describe('residential credential format', () => {
  it('writes a line the parser reads back, with the static marker only for static', () => {
    const targeting = { country: 'GB', sessionId: 'ab12cd34', durationMinutes: 60, type: 'static' as const };
    const line = residentialLine(credentials, targeting);
    expect(line).toBe('gw.example.com:8080:res0a1b2c3d4e-country-gb-session-ab12cd34-duration-60-hard:p4ss:word');
    expect(parseResidentialLine(line)).toEqual({
      endpoint: 'gw.example.com:8080',
      password: 'p4ss:word',
      username: 'res0a1b2c3d4e',
      ...targeting,
    });
    const dynamic = residentialLine(credentials, { ...targeting, type: 'dynamic' });
    expect(dynamic).not.toContain('hard');
    expect(parseResidentialLine(dynamic)?.type).toBe('dynamic');
  });

  it('refuses lines that are not in the format', () => {
    expect(parseResidentialLine('gw:8080:res-country-usa-session-ab12cd34-duration-60:p')).toBeUndefined();
    expect(parseResidentialLine('gw:port:res-country-us-session-ab12cd34-duration-60:p')).toBeUndefined();
    expect(parseResidentialLine('gw:8080:res-country-us-session-AB12cd34-duration-60:p')).toBeUndefined();
    expect(parseResidentialLine('gw:8080:res:p')).toBeUndefined();
  });

  it('makes session ids of 8 lowercase letters and digits, new for each line', () => {
    for (let i = 0; i < 50; i++) expect(newSessionId()).toMatch(/^[a-z0-9]{8}$/);
    const lines = generateResidentialList(credentials, { count: 2500, type: 'dynamic', country: 'US' });
    expect(lines).toHaveLength(2500);
    const sessions = new Set(lines.map((line) => parseResidentialLine(line)?.sessionId));
    expect(sessions.size).toBeGreaterThan(2490);
  });

  it('keeps the count between 1 and 10000', () => {
    expect(generateResidentialList(credentials, { count: 0, type: 'dynamic', country: 'US' })).toHaveLength(1);
    expect(generateResidentialList(credentials, { count: 20_000, type: 'dynamic', country: 'US' })).toHaveLength(
      GENERATOR_COUNT_MAX,
    );
  });

  it('lists about 190 countries: US, CA, GB first, then alphabetical, each code once', () => {
    expect(COUNTRY_OPTIONS.length).toBeGreaterThanOrEqual(185);
    expect(COUNTRY_OPTIONS.length).toBeLessThanOrEqual(200);
    expect(COUNTRY_OPTIONS.slice(0, 3).map((country) => country.id)).toEqual(['US', 'CA', 'GB']);
    const rest = COUNTRY_OPTIONS.slice(3).map((country) => country.name);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
    expect(new Set(COUNTRY_OPTIONS.map((country) => country.id)).size).toBe(COUNTRY_OPTIONS.length);
  });
});
