import { describe, expect, it } from 'vitest';
import { findSecrets } from './log-scan.ts';

describe('findSecrets', () => {
  it('finds what must not be logged', () => {
    const lines = [
      '{"req":{"url":"/api/auth/reset-password/abcdefghijklmnop"}}',
      '{"msg":"cookie storefront.session_token=abcdefgh12345678.sig"}',
      '{"body":{"password":"Hunter2!"}}',
      '{"key":"psk_0123456789abcdefghijKLMNOP"}',
      'paid with 4242 4242 4242 4242',
      'secret sk_test_abcdef123',
      '/api/proxy-list?key=psk_notredactedatall&format=x',
    ];
    expect(findSecrets(lines.join('\n'))).toHaveLength(lines.length);
  });

  it('leaves redacted values, times and ids alone', () => {
    const text = [
      '{"time":1795449600123,"req":{"url":"/api/auth/reset-password/[redacted]?token=[redacted]"}}',
      '{"url":"/api/proxy-list?key=[redacted]&format=ip:port"}',
      '{"orderId":"7c9e6679-7425-40de-944b-e07fc1f90ae7","amountCents":125000}',
      '{"password":"[redacted]"}',
      '{"url":"/api/admin/coupons/%22a6494124-2e91-397a-a265-673600000008%22/toggle"}',
      '{"id":"18a47171-0008-1000-95c3-0cf7756aaab9"}',
    ].join('\n');
    expect(findSecrets(text)).toEqual([]);
  });
});
