import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from './log-redaction.ts';

describe('redactUrl', () => {
  it('hides reset and confirmation tokens, in the path and in the query', () => {
    expect(redactUrl('/api/auth/reset-password/abc123XYZ?callbackURL=%2Freset-password')).toBe(
      `/api/auth/reset-password/${REDACTED}?callbackURL=%2Freset-password`,
    );
    expect(redactUrl('/reset-password?token=abc123XYZ')).toBe(`/reset-password?token=${REDACTED}`);
    expect(redactUrl('/api/auth/verify-email?token=eyJhbGciOi.x.y&callbackURL=%2Fauth%2Fcallback')).toBe(
      `/api/auth/verify-email?token=${REDACTED}&callbackURL=%2Fauth%2Fcallback`,
    );
  });

  it('hides OAuth codes and state, and sandbox invoice ids', () => {
    expect(redactUrl('/api/auth/callback/google?state=s3cr3t&code=4%2F0Ab&scope=email')).toBe(
      `/api/auth/callback/google?state=${REDACTED}&code=${REDACTED}&scope=email`,
    );
    expect(redactUrl('/sandbox/invoices/in_sandbox_AbC')).toBe(`/sandbox/invoices/${REDACTED}`);
    expect(redactUrl('/api/sandbox/invoices/in_sandbox_AbC')).toBe(`/api/sandbox/invoices/${REDACTED}`);
  });

  it('hides a personal API key in a list link, wherever it stands in the query', () => {
    expect(redactUrl('/api/proxy-list?key=psk_AbC-d_9&product=isp_proxies')).toBe(
      `/api/proxy-list?key=${REDACTED}&product=isp_proxies`,
    );
    expect(redactUrl('/api/proxy-list?format=ip:port:user:pass&KEY=psk_AbC#x')).toBe(
      `/api/proxy-list?format=ip:port:user:pass&KEY=${REDACTED}#x`,
    );
    // A parameter that merely ends in "key" is not a key.
    expect(redactUrl('/api/admin/users?sortkey=email')).toBe('/api/admin/users?sortkey=email');
  });

  it('leaves ordinary URLs alone', () => {
    for (const url of ['/api/orders?page=2', '/dashboard/proxies?tab=isp_proxies', '/api/auth/get-session', '/']) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});
