import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { regexes } from 'zod/v4/core';
import {
  authMessages,
  backupCodeProblem,
  EMAIL_FORM,
  enteredPasswordProblem,
  isValidEmail,
  PASSWORD_MAX,
  passwordRules,
  passwordStrengthProblem,
  totpCodeProblem,
  twoFactorMessages,
} from './auth.ts';

describe('the one password rule', () => {
  it('names the first part a password breaks, in the order the hint lists them', () => {
    expect(passwordStrengthProblem('Ab1!')).toBe('Password must be at least 8 characters');
    expect(passwordStrengthProblem('abcdef')).toBe(authMessages.passwordTooShort);
    expect(passwordStrengthProblem('ABCDEFG1!')).toBe(authMessages.needsLowercase);
    expect(passwordStrengthProblem('abcdefg1!')).toBe(authMessages.needsUppercase);
    expect(passwordStrengthProblem('Abcdefgh!')).toBe(authMessages.needsNumber);
    expect(passwordStrengthProblem('Abcdefgh1')).toBe(authMessages.needsSpecial);
    expect(passwordStrengthProblem(`Aa1!${'x'.repeat(PASSWORD_MAX)}`)).toBe(authMessages.passwordTooLong);
    expect(passwordStrengthProblem('Str0ng!pass')).toBeNull();
    expect(passwordRules.map((rule) => rule.message)).toEqual([
      authMessages.passwordTooShort,
      authMessages.needsLowercase,
      authMessages.needsUppercase,
      authMessages.needsNumber,
      authMessages.needsSpecial,
    ]);
  });
});

describe('isValidEmail', () => {
  it("takes what zod's z.email() takes (the auth service's check), with the spec's pattern besides", () => {
    // The same pattern (the formatter drops escapes a dash at the end of a class does not need).
    expect(EMAIL_FORM.source).toBe(regexes.email.source.replaceAll('\\-', '-'));
    expect(EMAIL_FORM.flags).toBe(regexes.email.flags);
    const email = z.email();
    for (const value of [
      'a@b',
      'a@b.c',
      'a@b.co',
      'first.last+tag@mail.example.com',
      "o'neil@example.org",
      'a b@c.de',
    ]) {
      expect(isValidEmail(value), value).toBe(email.safeParse(value).success);
    }
    expect(isValidEmail('a@b.co')).toBe(true);
    expect(isValidEmail('a@b')).toBe(false);
  });
});

describe('the two-factor forms', () => {
  it('ask for a password, six digits from the app, or a backup code', () => {
    expect(enteredPasswordProblem('')).toBe(twoFactorMessages.passwordRequired);
    expect(enteredPasswordProblem(' ')).toBeNull();
    expect(totpCodeProblem('')).toBe('Enter the 6-digit code');
    expect(totpCodeProblem('12345')).toBe(twoFactorMessages.codeRequired);
    expect(totpCodeProblem('12345a')).toBe(twoFactorMessages.codeRequired);
    expect(totpCodeProblem(' 123456 ')).toBeNull();
    expect(backupCodeProblem(' abcd ')).toBe('Enter one of your backup codes');
    expect(backupCodeProblem('aaaa-1111')).toBeNull();
  });
});
