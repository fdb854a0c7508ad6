import { describe, expect, it } from 'vitest';
import { pathIsPlain } from './plain-address.ts';

describe('pathIsPlain', () => {
  it('takes the paths a browser sends', () => {
    for (const url of [
      '/',
      '/api/auth/sign-in/email',
      '/api/proxy-list?key=psk_x&format=a/b/../c',
      '/dashboard/proxies?tab=residential',
      '/api/auth/reset-password/abc%2Fdef',
      '/caf%C3%A9',
      '/a.b/..c/...',
    ]) {
      expect(pathIsPlain(url), url).toBe(true);
    }
  });

  it('refuses every spelling a parser would read as another path', () => {
    for (const url of [
      '/api/auth/./sign-in/email',
      '/api/auth/x/../sign-in/email',
      '/api/auth/%2e/sign-in/email',
      '/api/auth/%2E%2E/auth/sign-in/email',
      '/api/auth/.%2e/sign-in/email',
      '/api/auth/sign-in/./email',
      '/api/auth/sign-in/email/.',
      '/api/auth/sign-in/email/..',
      '/api/auth/sign-in\\email',
      '/api/auth/sign-in/email#x',
      '/api/auth/verify-email?token=T#&token=T',
      '/api/auth/sign in/email',
      '/café',
      '//evil.example/api',
      'api/auth/sign-in/email',
    ]) {
      expect(pathIsPlain(url), url).toBe(false);
    }
  });
});
