import { describe, expect, it } from 'vitest';
import { REDACTED, redactQuery, redactUrl } from './log-redaction.ts';

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

  it('reads parameter names and values as the server does: a percent-encoded name is still the key', () => {
    for (const name of ['ke%79', '%6Bey', '%6B%65%79', 'KE%59', 'to%6Ben', 'ke%79%20']) {
      expect(redactUrl(`/api/proxy-list?${name}=psk_AbC-d_9&product=isp_proxies`), name).toBe(
        `/api/proxy-list?${name}=${REDACTED}&product=isp_proxies`,
      );
    }
  });

  it('hides anything that looks like an API key, under any name and anywhere in the URL', () => {
    expect(redactUrl('/api/orders?q=psk_AbC-d_9')).toBe(`/api/orders?q=${REDACTED}`);
    expect(redactUrl('/api/orders?q=%70sk_AbC')).toBe(`/api/orders?q=${REDACTED}`);
    expect(redactUrl('/api/proxy-list?psk_AbC-d_9')).toBe(`/api/proxy-list?${REDACTED}`);
    expect(redactUrl('/api/keys/psk_AbC-d_9/x')).toBe(`/api/keys/${REDACTED}/x`);
    expect(redactUrl('/api/proxy-list?product=isp&key=psk_1&key=psk_2')).toBe(
      `/api/proxy-list?product=isp&key=${REDACTED}&key=${REDACTED}`,
    );
  });

  it('reads encoded path segments too', () => {
    expect(redactUrl('/api/auth/reset%2Dpassword/abc123XYZ')).toBe(`/api/auth/reset%2Dpassword/${REDACTED}`);
    expect(redactUrl('/sandbox/%69nvoices/in_sandbox_AbC')).toBe(`/sandbox/%69nvoices/${REDACTED}`);
  });

  it('leaves a malformed encoding readable and still hides the secrets around it', () => {
    expect(redactUrl('/api/orders?page=%E0%A4%A&key=psk_x')).toBe(`/api/orders?page=%E0%A4%A&key=${REDACTED}`);
  });

  it('reads the forms a span holds the URL in (lib/tracing-sdk.ts): absolute, or a query alone with or without `?`', () => {
    expect(redactUrl('https://shop.example/api/auth/reset-password/abc123XYZ?callbackURL=%2F')).toBe(
      `https://shop.example/api/auth/reset-password/${REDACTED}?callbackURL=%2F`,
    );
    expect(redactUrl('http://127.0.0.1:3000/api/proxy-list?key=psk_AbC&product=isp')).toBe(
      `http://127.0.0.1:3000/api/proxy-list?key=${REDACTED}&product=isp`,
    );
    expect(redactUrl('https://psk_AbC@shop.example/')).toBe(`https://${REDACTED}/`);
    expect(redactUrl('?token=abc123XYZ&callbackURL=%2F')).toBe(`?token=${REDACTED}&callbackURL=%2F`);
    expect(redactQuery('token=abc123XYZ&callbackURL=%2F')).toBe(`token=${REDACTED}&callbackURL=%2F`);
    expect(redactQuery('ke%79=psk_AbC&q=%70sk_AbC')).toBe(`ke%79=${REDACTED}&q=${REDACTED}`);
    expect(redactQuery('page=2&sort=email')).toBe('page=2&sort=email');
  });

  it('leaves ordinary URLs alone', () => {
    for (const url of ['/api/orders?page=2', '/dashboard/proxies?tab=isp_proxies', '/api/auth/get-session', '/']) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});
