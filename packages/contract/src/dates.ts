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

/**
 * A moment (a Date, an ISO string or milliseconds) in one of the shop's styles, in the given zone (an IANA name such as
 * 'UTC' or 'Europe/Paris'), by default the zone of the machine it runs on (the reader's, in the browser).
 */
export function formatDate(value: Date | string | number, style: DateStyle, timeZone?: string): string {
  const key = `${style}:${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { ...STYLES[style], ...(timeZone && { timeZone }) });
    formats.set(key, format);
  }
  return format.format(value instanceof Date ? value : new Date(value));
}

/** The cookie in which the browser tells the server its time zone, so that pages the server draws show the reader's. */
export const TIME_ZONE_COOKIE = 'tz';

/**
 * The canonical name of a time zone this runtime knows ('europe/paris' is 'Europe/Paris'), else undefined. Canonical,
 * so that however a visitor spells a zone, the formatters made for it (one per zone and style) stay a few hundred.
 */
export function knownTimeZone(name: string | undefined): string | undefined {
  if (!name || name.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
