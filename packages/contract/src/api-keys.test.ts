import { describe, expect, it } from 'vitest';
import { proxyListUrl } from './api-keys.ts';
import { proxyListQuerySchema } from './schemas/api-keys.ts';

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
