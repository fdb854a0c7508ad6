// The zod schemas of the usage statistics (GET /api/usage): what the server validates and serialises, and the API
// reference; the web app takes their types only.
import { z } from 'zod';
import { knownTimeZone } from '../dates.ts';
import { USAGE_DOMAINS_SHOWN, USAGE_MAX_DAYS, USAGE_RANGES } from '../usage.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A day of the calendar (not 2026-02-30). */
const isDay = (text: string) =>
  DAY.test(text) && text >= '0001' && !Number.isNaN(Date.parse(text)) && new Date(text).toISOString().startsWith(text);
const dayCount = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

export const usageQuerySchema = z
  .object({
    range: z
      .enum(USAGE_RANGES, { error: `range is one of ${USAGE_RANGES.join(', ')}.` })
      .default('7d')
      .describe('today, the last 7 or 30 days, this month so far, or custom (from and to)'),
    from: z
      .string()
      .refine((text) => isDay(text), 'from is a day: YYYY-MM-DD.')
      .optional()
      .describe('The first day of a custom range, in timeZone'),
    to: z
      .string()
      .refine((text) => isDay(text), 'to is a day: YYYY-MM-DD.')
      .optional()
      .describe('The last day of a custom range, in timeZone'),
    by: z
      .enum(['hour', 'day'], { error: 'by is hour or day.' })
      .optional()
      .describe('The chart by hour or by day; by hour for today, else by day'),
    timeZone: z
      .string()
      .optional()
      .refine((zone) => zone === undefined || knownTimeZone(zone) !== undefined, 'timeZone is an IANA time zone.')
      .describe('The days and hours are the customer’s in this IANA zone; UTC by default'),
    user: z
      .string()
      .max(64, 'user is a proxy user’s id, or main.')
      .optional()
      .describe('Only the main user (main) or one proxy user (its id)'),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'country is a two-letter code such as US.')
      .optional()
      .describe('Only what targeted this country'),
  })
  .refine((query) => query.range !== 'custom' || (query.from !== undefined && query.to !== undefined), {
    message: 'A custom range needs from and to.',
    path: ['from'],
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'The first day comes before the last.',
    path: ['to'],
  })
  .refine((query) => !query.from || !query.to || dayCount(query.from, query.to) <= USAGE_MAX_DAYS, {
    message: `A custom range is at most ${USAGE_MAX_DAYS} days.`,
    path: ['to'],
  });
export type UsageQuery = z.input<typeof usageQuerySchema>;

const figures = {
  bytes: z.number().int().describe('Bytes carried, both ways'),
  connections: z.number().int().describe('Tunnels and plain-HTTP requests'),
};

export const usageReportSchema = z.object({
  from: z.string().describe('The first day of the range (YYYY-MM-DD, in timeZone)'),
  to: z.string().describe('The last day of the range (YYYY-MM-DD, in timeZone)'),
  timeZone: z.string(),
  by: z.enum(['hour', 'day']),
  summary: z.object({
    ...figures,
    leftKb: z.number().int().describe('The account’s residential data left now, in KB (1024 bytes)'),
    bytesPerDay: z.number().int().describe('The average a day over the days of the range so far'),
  }),
  series: z
    .array(z.object({ start: z.string().describe('The hour or day’s start, as an ISO instant'), ...figures }))
    .describe('Every hour or day of the range so far, with nothing used too'),
  users: z.array(
    z.object({
      proxyUserId: z.string().nullable().describe('null: the main user'),
      name: z.string().describe('The proxy user’s name (main for the account’s own)'),
      deleted: z.boolean(),
      ...figures,
    }),
  ),
  countries: z.array(z.object({ country: z.string().describe("A two-letter code; '' for no targeting"), ...figures })),
  domains: z
    .array(
      z.object({ domain: z.string().describe("A registrable domain; '' for an address or not recorded"), ...figures }),
    )
    .describe(`The ${USAGE_DOMAINS_SHOWN} largest, by UTC day`),
  otherDomains: z.object({ count: z.number().int(), ...figures }).describe('Every other domain together'),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
