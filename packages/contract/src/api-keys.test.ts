import { describe, expect, it } from 'vitest';
import { API_KEY_NAME_MAX, apiKeyNameProblem, proxyListUrl } from './api-keys.ts';
import { createApiKeyRequestSchema, proxyListQuerySchema } from './schemas/api-keys.ts';

describe('proxyListUrl', () => {
  it('writes a static list link with the format readable, and a placeholder for the key', () => {
    expect(proxyListUrl('https://shop.example', { product: 'isp_proxies', format: 'http://user:pass@ip:port' })).toBe(
      'https://shop.example/api/proxy-list?key=YOUR_API_KEY&product=isp_proxies&format=http://user:pass@ip:port',
    );
  });

  it('adds the targeting only for residential, and the link reads back as it was written', () => {
    const url = proxyListUrl('https://shop.example', {
      key: 'psk_abc',
      product: 'residential_proxies',
      format: 'ip:port:user:pass',
      country: 'DE',
      type: 'static',
      count: 50,
    });
    expect(url).toBe(
      'https://shop.example/api/proxy-list?key=psk_abc&product=residential_proxies&format=ip:port:user:pass&country=DE&type=static&count=50',
    );
    const query = Object.fromEntries(
      (url.split('?')[1] ?? '').split('&').map((pair) => pair.split('=').map(decodeURIComponent) as [string, string]),
    );
    expect(proxyListQuerySchema.parse(query)).toEqual({
      key: 'psk_abc',
      product: 'residential_proxies',
      format: 'ip:port:user:pass',
      country: 'DE',
      type: 'static',
      count: 50,
    });
    expect(proxyListUrl('https://s', { product: 'pk1_isp_proxies', country: 'DE' })).toBe(
      'https://s/api/proxy-list?key=YOUR_API_KEY&product=pk1_isp_proxies',
    );
  });

  it('fills the defaults and reads a lower-case country', () => {
    expect(proxyListQuerySchema.parse({ country: 'gb' })).toEqual({
      format: 'ip:port:user:pass',
      country: 'GB',
      type: 'dynamic',
      count: 2500,
    });
  });
});

describe('apiKeyNameProblem', () => {
  it("says what the server's schema says, word for word, for every kind of name", () => {
    const names = [
      '',
      ' ',
      '\t\n',
      'Scraper',
      '  Scraper  ',
      'x'.repeat(API_KEY_NAME_MAX),
      ` ${'x'.repeat(API_KEY_NAME_MAX)} `,
    ];
    names.push('x'.repeat(API_KEY_NAME_MAX + 1), `Scraper ${'x'.repeat(API_KEY_NAME_MAX)}`, 'ключ', '🔑'.repeat(40));
    // At the limit in code points (each emoji two UTF-16 units): the last that passes, the first that does not.
    names.push('🔑'.repeat(API_KEY_NAME_MAX), '🔑'.repeat(API_KEY_NAME_MAX + 1));
    for (const name of names) {
      const schemaSays = createApiKeyRequestSchema.safeParse({ name }).error?.issues[0]?.message ?? null;
      expect(apiKeyNameProblem(name), JSON.stringify(name)).toBe(schemaSays);
    }
    expect(apiKeyNameProblem('')).not.toBeNull();
    expect(apiKeyNameProblem('x'.repeat(API_KEY_NAME_MAX + 1))).not.toBeNull();
    expect(apiKeyNameProblem('🔑'.repeat(API_KEY_NAME_MAX))).toBeNull();
    expect(apiKeyNameProblem('🔑'.repeat(API_KEY_NAME_MAX + 1))).not.toBeNull();
  });
});
