import { describe, expect, it } from 'vitest';
import { isBannedNow } from './ban.ts';

describe('isBannedNow', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('is false for a user who was never banned, or whose ban was lifted', () => {
    expect(isBannedNow({ banned: false, banExpires: null }, now)).toBe(false);
    expect(isBannedNow({ banned: null }, now)).toBe(false);
    expect(isBannedNow({ banned: false, banExpires: new Date(now + 60_000) }, now)).toBe(false);
  });
  it('is true for a ban without an end', () => {
    expect(isBannedNow({ banned: true, banExpires: null }, now)).toBe(true);
    expect(isBannedNow({ banned: true }, now)).toBe(true);
  });
  it('is true while a ban runs and false from the instant it ends', () => {
    expect(isBannedNow({ banned: true, banExpires: new Date(now + 1) }, now)).toBe(true);
    expect(isBannedNow({ banned: true, banExpires: new Date(now) }, now)).toBe(false);
    expect(isBannedNow({ banned: true, banExpires: new Date(now - 60_000).toISOString() }, now)).toBe(false);
  });
});
