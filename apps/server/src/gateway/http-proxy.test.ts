import { describe, expect, it } from 'vitest';
import { authorityOf } from './connect.ts';
import { absoluteUrl, endToEnd } from './http-proxy.ts';

describe('plain HTTP and CONNECT requests', () => {
  it('passes on end-to-end headers only: not hop-by-hop ones, nor those Connection names', () => {
    const raw = [
      'Host',
      'example.com',
      'Connection',
      'keep-alive, X-Secret',
      'X-Secret',
      'drop me',
      'Proxy-Authorization',
      'Basic abc',
      'Transfer-Encoding',
      'chunked',
      'Accept',
      '*/*',
    ];
    expect(endToEnd(raw, false)).toEqual(['Host', 'example.com', 'Accept', '*/*']);
    expect(endToEnd(raw, true)).toEqual(['Host', 'example.com', 'Transfer-Encoding', 'chunked', 'Accept', '*/*']);
  });

  it('takes only absolute-form http:// targets', () => {
    expect(absoluteUrl('http://example.com:8080/a?b')?.host).toBe('example.com:8080');
    expect(absoluteUrl('HTTP://example.com/')?.hostname).toBe('example.com');
    expect(absoluteUrl('/relative')).toBeUndefined();
    expect(absoluteUrl('https://example.com/')).toBeUndefined();
    expect(absoluteUrl('http://[bad/')).toBeUndefined();
  });

  it('reads CONNECT authorities, IPv6 in brackets, and refuses port 0 or none', () => {
    expect(authorityOf('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(authorityOf('[2001:db8::1]:8443')).toEqual({ host: '2001:db8::1', port: 8443 });
    expect(authorityOf('example.com')).toBeUndefined();
    expect(authorityOf('example.com:0')).toBeUndefined();
    expect(authorityOf('example.com:70000')).toBeUndefined();
    expect(authorityOf('http://example.com:80')).toBeUndefined();
  });
});
