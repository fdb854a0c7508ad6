import { describe, expect, it } from 'vitest';
import { isSignInConfirmation, signUpAnswer } from './routes.ts';

const jwt = (claims: object) =>
  ['eyJhbGciOiJIUzI1NiJ9', Buffer.from(JSON.stringify(claims)).toString('base64url'), 'signature'].join('.');

describe('isSignInConfirmation', () => {
  it('is true for a first confirmation, which signs in', () => {
    expect(isSignInConfirmation(jwt({ email: 'ann@example.com' }))).toBe(true);
  });
  it('is false for the tokens of an e-mail change and for what is not a JWT', () => {
    expect(isSignInConfirmation(jwt({ email: 'ann@example.com', updateTo: 'new@example.com' }))).toBe(false);
    for (const token of ['nothing', 'a.%%%.c', 'a..c', `a.${Buffer.from('42').toString('base64url')}.c`]) {
      expect(isSignInConfirmation(token), token).toBe(false);
    }
  });
});

describe('signUpAnswer', () => {
  it('is made only of what was sent, so a known and a new address get the same answer', () => {
    expect(signUpAnswer({ email: ' Ann@Example.com ', name: 'Ann', password: 'x' })).toEqual({
      token: null,
      user: { email: 'ann@example.com', name: 'Ann', emailVerified: false },
    });
    expect(signUpAnswer(undefined)).toEqual({ token: null, user: { email: '', name: '', emailVerified: false } });
  });
});
