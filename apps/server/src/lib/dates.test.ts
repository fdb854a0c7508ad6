import { describe, expect, it } from 'vitest';
import { addMonths } from './dates.ts';

describe('addMonths', () => {
  it('keeps the day and the time of day', () => {
    expect(addMonths(new Date('2026-11-22T10:15:00Z'), 1).toISOString()).toBe('2026-12-22T10:15:00.000Z');
    expect(addMonths(new Date('2026-12-05T00:00:00Z'), 1).toISOString()).toBe('2027-01-05T00:00:00.000Z');
  });

  it('ends on the last day of a shorter month', () => {
    expect(addMonths(new Date('2027-01-31T12:00:00Z'), 1).toISOString()).toBe('2027-02-28T12:00:00.000Z');
    expect(addMonths(new Date('2028-01-31T12:00:00Z'), 1).toISOString()).toBe('2028-02-29T12:00:00.000Z');
    expect(addMonths(new Date('2026-10-31T00:00:00Z'), 1).toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });
});
