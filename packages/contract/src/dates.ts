/**
 * Dates and times, written out the few ways the shop shows them (en-US). Pages show the reader's own time zone;
 * e-mails and the administrator's alerts pass `'UTC'` and say so. Each formatter is made once (making one costs far
 * more than formatting with one).
 */
const STYLES = {
  /** Nov 25, 2026 */
  date: { dateStyle: 'medium' },
  /** November 25, 2026 */
  'long-date': { dateStyle: 'long' },
  /** Nov 25, 2026, 5:12 PM */
  'date-time': { dateStyle: 'medium', timeStyle: 'short' },
  /** November 25, 2026 at 5:12 PM */
  'long-date-time': { dateStyle: 'long', timeStyle: 'short' },
  /** Nov 25 */
  'month-day': { month: 'short', day: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof STYLES;

const formats = new Map<string, Intl.DateTimeFormat>();

/** A moment (a Date, an ISO string or milliseconds) in one of the shop's styles, in the reader's zone or in UTC. */
export function formatDate(value: Date | string | number, style: DateStyle, timeZone?: 'UTC'): string {
  const key = `${style}:${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { ...STYLES[style], ...(timeZone && { timeZone }) });
    formats.set(key, format);
  }
  return format.format(value instanceof Date ? value : new Date(value));
}
