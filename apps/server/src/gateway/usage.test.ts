import { describe, expect, it } from 'vitest';
import { registrableDomain } from './usage.ts';

describe('usage analytics keys', () => {
  it('records the registrable domain only: no subdomain, and nothing for an address or a name without a suffix', () => {
    expect(registrableDomain('www.shop.example.co.uk')).toBe('example.co.uk');
    expect(registrableDomain('API.Example.COM')).toBe('example.com');
    expect(registrableDomain('example.com')).toBe('example.com');
    expect(registrableDomain('203.0.113.7')).toBe('');
    expect(registrableDomain('2001:db8::1')).toBe('');
    expect(registrableDomain('[2001:db8::1]')).toBe('');
    expect(registrableDomain('localhost')).toBe('');
    expect(registrableDomain('')).toBe('');
  });
});
