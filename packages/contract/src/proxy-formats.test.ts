import { describe, expect, it } from 'vitest';
import {
  allOrdersDownload,
  formatEndpoint,
  isProxyFormat,
  ORDER_SEPARATOR,
  orderDownload,
  proxyAddress,
  proxyLine,
} from './proxy-formats.ts';

describe('proxy formats and downloads', () => {
  it('knows its formats, and no name an object inherits (a stored choice may be anything)', () => {
    expect(isProxyFormat('socks5://user:pass@ip:port')).toBe(true);
    expect(isProxyFormat('ip:port:user:pass')).toBe(true);
    for (const value of ['constructor', 'toString', '__proto__', 'hasOwnProperty', '', 'socks5', undefined, null, 1]) {
      expect(isProxyFormat(value)).toBe(false);
    }
  });

  it('writes an endpoint in each format', () => {
    const endpoint = '192.0.2.1:8000:user:pa:ss';
    expect(formatEndpoint(endpoint, 'ip:port:user:pass')).toBe(endpoint);
    expect(formatEndpoint(endpoint, 'user:pass@ip:port')).toBe('user:pa:ss@192.0.2.1:8000');
    expect(formatEndpoint(endpoint, 'http://user:pass@ip:port')).toBe('http://user:pa:ss@192.0.2.1:8000');
    expect(formatEndpoint(endpoint, 'socks5://user:pass@ip:port')).toBe('socks5://user:pa:ss@192.0.2.1:8000');
    expect(formatEndpoint('192.0.2.1:8000', 'socks5://user:pass@ip:port')).toBe('192.0.2.1:8000');
  });

  it('names and fills the downloads with ISO dates and a line of 50 = between orders', () => {
    const date = new Date('2026-11-22T23:59:00Z');
    const orders = [
      { id: 'aaaa-bbbb-1234abcd', proxies: ['192.0.2.1:1:u:p', '192.0.2.2:1:u:p'] },
      { id: 'x', proxies: [] },
      { id: 'cccc-dddd-5678efab', proxies: ['192.0.2.3:1:u:p'] },
    ];
    expect(ORDER_SEPARATOR).toBe('='.repeat(50));
    expect(allOrdersDownload(orders, 'ip:port:user:pass', date)).toEqual({
      fileName: 'proxy-orders-2026-11-22.txt',
      content: `192.0.2.1:1:u:p\n192.0.2.2:1:u:p\n${'='.repeat(50)}\n192.0.2.3:1:u:p`,
    });
    expect(orderDownload(orders[0] ?? { id: '', proxies: [] }, 'user:pass@ip:port', date)).toEqual({
      fileName: 'proxy-order-1234ABCD-2026-11-22.txt',
      content: 'u:p@192.0.2.1:1\nu:p@192.0.2.2:1',
    });
  });
});

describe('proxyLine', () => {
  it('writes ip:port:user:pass, or the address alone without credentials', () => {
    expect(proxyAddress('203.0.113.7', 8080)).toBe('203.0.113.7:8080');
    expect(proxyLine(proxyAddress('203.0.113.7', 8080), 'user', 'pass')).toBe('203.0.113.7:8080:user:pass');
    expect(proxyLine(proxyAddress('203.0.113.7', 8080), '', '')).toBe('203.0.113.7:8080');
    expect(proxyLine('203.0.113.7:8080')).toBe('203.0.113.7:8080');
  });

  it('is read back by formatEndpoint', () => {
    const line = proxyLine(proxyAddress('198.51.100.1', 3128), 'u1', 'p1');
    expect(formatEndpoint(line, 'http://user:pass@ip:port')).toBe('http://u1:p1@198.51.100.1:3128');
  });
});
