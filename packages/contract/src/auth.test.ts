import { describe, expect, it } from 'vitest';
import { authMessages, PASSWORD_MAX, passwordRules, passwordStrengthProblem } from './auth.ts';

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
