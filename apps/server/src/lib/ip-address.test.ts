import { describe, expect, it } from 'vitest';
import { canonicalIp, socketIp, sourceKey } from './ip-address.ts';

describe('one spelling per address', () => {
  it('keeps IPv4 as it is, maps IPv4-mapped IPv6 to IPv4, shortens IPv6, refuses what is not one address', () => {
    expect(canonicalIp('203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalIp(' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(canonicalIp('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalIp('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    for (const notOne of ['010.0.0.1', '203.0.113.0/24', 'example.com', 'fe80::1%eth0', '', '1.2.3']) {
      expect(canonicalIp(notOne)).toBeUndefined();
    }
    expect(socketIp('fe80::1%eth0')).toBe('fe80::1');
    expect(socketIp(undefined)).toBeUndefined();
  });

  it('counts a client by its IPv4 address or its IPv6 /64', () => {
    expect(sourceKey('203.0.113.7')).toBe('203.0.113.7');
    expect(sourceKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(sourceKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(sourceKey(undefined)).toBe('unknown');
  });
});
