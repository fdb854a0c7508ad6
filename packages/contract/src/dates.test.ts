import { describe, expect, it } from 'vitest';
import { formatDate, knownTimeZone } from './dates.ts';

const moment = '2026-11-25T17:05:00Z';

describe('formatDate', () => {
  it('writes each style the way it always read (UTC)', () => {
    expect(formatDate(moment, 'date', 'UTC')).toBe('Nov 25, 2026');
    expect(formatDate(moment, 'long-date', 'UTC')).toBe('November 25, 2026');
    expect(formatDate(moment, 'date-time', 'UTC')).toBe('Nov 25, 2026, 5:05 PM');
    expect(formatDate(moment, 'long-date-time', 'UTC')).toBe('November 25, 2026 at 5:05 PM');
    expect(formatDate(moment, 'month-day', 'UTC')).toBe('Nov 25');
  });

  it('takes a Date, an ISO string or milliseconds alike', () => {
    const date = new Date(moment);
    expect(formatDate(date, 'date-time', 'UTC')).toBe(formatDate(moment, 'date-time', 'UTC'));
    expect(formatDate(date.getTime(), 'date-time', 'UTC')).toBe(formatDate(moment, 'date-time', 'UTC'));
  });

  it("uses the reader's zone without one, as Intl does", () => {
    const local = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
    expect(formatDate(moment, 'date-time')).toBe(local.format(new Date(moment)));
    expect(formatDate('2026-01-01T00:30:00Z', 'month-day', 'UTC')).toBe('Jan 1');
  });
});

describe('time zones', () => {
  it('writes a moment in any named zone', () => {
    expect(formatDate(moment, 'date-time', 'Europe/Paris')).toBe('Nov 25, 2026, 6:05 PM');
    // The same moment is already the next day in Kiritimati (UTC+14).
    expect(formatDate(moment, 'date', 'Pacific/Kiritimati')).toBe('Nov 26, 2026');
  });

  it("takes a browser's zone only when it is one (the cookie is the visitor's to write)", () => {
    for (const zone of ['UTC', 'Europe/Paris', 'Asia/Tokyo', 'Etc/GMT+5']) expect(knownTimeZone(zone)).toBe(zone);
    // However it is spelt, one name (each name costs a formatter per style, kept for good).
    for (const spelling of ['europe/paris', 'EUROPE/PARIS', 'eUrOpE/pArIs'])
      expect(knownTimeZone(spelling)).toBe('Europe/Paris');
    for (const zone of [undefined, '', 'Mars/Olympus', 'Europe/Paris<script>', 'x'.repeat(65), 'Europe/Paris\n'])
      expect(knownTimeZone(zone)).toBeUndefined();
  });
});
