import { describe, expect, it } from 'vitest';
import { proxyV2 } from '../test/proxy-client.ts';
import { ProxyProtocolError, parseProxyHeader } from './proxy-protocol.ts';

describe('PROXY protocol header', () => {
  it('reads version 1 for TCP4, TCP6 and UNKNOWN, and says where the client data starts', () => {
    const v4 = Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.1 51234 8080\r\nGET / HTTP/1.1\r\n');
    expect(parseProxyHeader(v4)).toEqual({ length: 44, clientIp: '203.0.113.7' });
    expect(v4.subarray(44).toString()).toBe('GET / HTTP/1.1\r\n');
    const v6 = Buffer.from('PROXY TCP6 2001:db8::7 2001:db8::1 51234 8080\r\n\x05');
    expect(parseProxyHeader(v6)).toEqual({ length: v6.length - 1, clientIp: '2001:db8::7' });
    expect(parseProxyHeader(Buffer.from('PROXY UNKNOWN\r\n'))).toEqual({ length: 15, clientIp: undefined });
  });

  it('waits for more bytes while a header is incomplete, at every cut', () => {
    const whole = Buffer.concat([
      Buffer.from('PROXY TCP4 198.51.100.9 10.0.0.1 1 2\r\n'),
      proxyV2({ ip: '1.2.3.4', port: 9 }),
    ]);
    const v1Length = whole.indexOf('\r\n') + 2;
    for (let cut = 1; cut < v1Length; cut++)
      expect(parseProxyHeader(whole.subarray(0, cut)), String(cut)).toBeUndefined();
    const v2 = proxyV2({ ip: '2001:db8::9', port: 1 }, { tlv: Buffer.from([0x04, 0x00, 0x01, 0x00]) });
    for (let cut = 1; cut < v2.length; cut++)
      expect(parseProxyHeader(v2.subarray(0, cut)), String(cut)).toBeUndefined();
    expect(parseProxyHeader(v2)).toEqual({ length: v2.length, clientIp: '2001:db8:0:0:0:0:0:9' });
  });

  it('reads version 2 for IPv4 and IPv6, skips its TLVs, and takes LOCAL as no address', () => {
    const tlv = Buffer.from([0x01, 0x00, 0x02, 0x68, 0x32]);
    const v4 = Buffer.concat([proxyV2({ ip: '192.0.2.44', port: 40000 }, { tlv }), Buffer.from('CONNECT')]);
    const header = parseProxyHeader(v4);
    expect(header).toEqual({ length: 16 + 12 + tlv.length, clientIp: '192.0.2.44' });
    expect(v4.subarray(header?.length).toString()).toBe('CONNECT');
    expect(parseProxyHeader(proxyV2({ ip: '192.0.2.44', port: 1 }, { local: true }))?.clientIp).toBeUndefined();
  });

  it('refuses a connection that does not start with a valid header', () => {
    for (const bad of [
      'GET http://example.com/ HTTP/1.1\r\n',
      '\x05\x01\x00',
      'PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n',
      'PROXY TCP4 2001:db8::1 5.6.7.8 1 2\r\n',
      'PROXY TCP4 1.2.3.4 5.6.7.8 1 65536\r\n',
      'PROXY TCP5 1.2.3.4 5.6.7.8 1 2\r\n',
      `PROXY TCP4 ${'1'.repeat(120)}`,
    ]) {
      expect(() => parseProxyHeader(Buffer.from(bad)), JSON.stringify(bad)).toThrow(ProxyProtocolError);
    }
    const wrongVersion = proxyV2({ ip: '1.2.3.4', port: 1 });
    wrongVersion[12] = 0x11;
    expect(() => parseProxyHeader(wrongVersion)).toThrow(ProxyProtocolError);
    const tooLong = proxyV2({ ip: '1.2.3.4', port: 1 });
    tooLong.writeUInt16BE(60_000, 14);
    expect(() => parseProxyHeader(tooLong)).toThrow(ProxyProtocolError);
    const short = proxyV2({ ip: '1.2.3.4', port: 1 });
    short.writeUInt16BE(4, 14);
    expect(() => parseProxyHeader(short.subarray(0, 20))).toThrow(ProxyProtocolError);
  });
});
