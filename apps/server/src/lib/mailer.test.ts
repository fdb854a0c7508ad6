import { describe, expect, it } from 'vitest';
import { maskedAddress } from './mailer.ts';

describe('maskedAddress', () => {
  it('keeps the first character and the domain only', () => {
    expect(maskedAddress('ann.smith@example.com')).toBe('a***@example.com');
    expect(maskedAddress('a@b.example')).toBe('a***@b.example');
    expect(maskedAddress('"odd@local"@example.com')).toBe('"***@example.com');
    expect(maskedAddress('not-an-address')).toBe('***');
  });
});
