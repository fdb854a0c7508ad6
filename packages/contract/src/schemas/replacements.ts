// The zod schemas of replacements.ts: what the server validates and serialises, and the API reference.
import { z } from 'zod';
import { REPLACEMENT_REASONS } from '../replacements.ts';
import { orderIdSchema } from './orders.ts';

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const ADDRESS = new RegExp(`^${OCTET}(\\.${OCTET}){3}:([1-9]\\d{0,4})$`);
const ADDRESS_WORDS = 'Each IP is given as ip:port, such as 203.0.113.7:8000.';

/** The order in the address: /api/orders/{id}/replacements. */
export const replacementOrderParamsSchema = z.object({ id: orderIdSchema });

export const replacementReasonSchema = z.enum(REPLACEMENT_REASONS, {
  error: 'The reason is one of blocked, slow, no_connect or other.',
});

/** POST /api/orders/{id}/replacements(/preview): which of the order's IPs, and why. */
export const replacementRequestSchema = z.strictObject(
  {
    ips: z
      .array(z.string({ error: ADDRESS_WORDS }).regex(ADDRESS, ADDRESS_WORDS), { error: ADDRESS_WORDS })
      .min(1, 'Pick at least one IP to replace.')
      .max(1000, 'At most 1000 IPs can be replaced at once.')
      .refine((ips) => new Set(ips).size === ips.length, 'Name each IP once.'),
    reason: replacementReasonSchema,
  },
  { error: 'Send ips (a list of ip:port) and reason only.' },
);
export type ReplacementRequest = z.infer<typeof replacementRequestSchema>;

/** The order's allowance in its current billing period. */
export const replacementAllowanceSchema = z.object({
  percent: z.number().int().describe("The operator's share of an order's IPs replaceable per billing period"),
  limit: z.number().int().describe('Replacements this billing period: percent of the IPs, at least 1 (0 when off)'),
  used: z.number().int(),
  left: z.number().int(),
  periodEnd: z.string().nullable().describe('When the period ends and the allowance starts again (the renewal)'),
});
export type ReplacementAllowance = z.infer<typeof replacementAllowanceSchema>;

export const replacementPreviewSchema = z.object({
  count: z.number().int().describe('IPs to replace'),
  allowance: replacementAllowanceSchema,
  leftAfter: z.number().int().describe('Replacements left this period once these are made'),
  atOnce: z.number().int().describe('How many get a new IP at once, from the free IPs of the pool'),
  waiting: z.number().int().describe('How many would wait for new stock, keeping their old IP meanwhile'),
  withinAllowance: z.boolean(),
  message: z.string(),
});
export type ReplacementPreview = z.infer<typeof replacementPreviewSchema>;

export const replacementEntrySchema = z.object({
  id: z.string(),
  requestedAt: z.string(),
  reason: replacementReasonSchema,
  status: z.enum(['done', 'waiting', 'void']).describe('done; waiting for stock; void (the order ended first)'),
  oldIp: z.string().describe('ip:port replaced'),
  newIp: z.string().nullable().describe('ip:port given in its place (null while waiting)'),
  doneAt: z.string().nullable(),
});
export type ReplacementEntry = z.infer<typeof replacementEntrySchema>;

export const replacementResultSchema = z.object({
  message: z.string(),
  replaced: z.array(z.object({ oldIp: z.string(), newIp: z.string() })),
  waiting: z.array(z.string()).describe('ip:port of the IPs waiting for new stock'),
  allowance: replacementAllowanceSchema,
});
export type ReplacementResult = z.infer<typeof replacementResultSchema>;

/** A position in a list: what a previous page gave as next. */
const afterSchema = z.string().max(200, 'after is the position a previous page gave as next.').optional();

export const replacementHistoryQuerySchema = z.object({ after: afterSchema });

export const replacementHistorySchema = z.object({
  allowance: replacementAllowanceSchema,
  replacements: z.array(replacementEntrySchema).describe('Newest first'),
  next: z.string().nullable().describe('Pass as after for the next page; null on the last'),
  waitingIps: z
    .array(z.string())
    .describe(
      "The order's IPs waiting for their replacement now (ip:port), whatever the page: they cannot be asked again",
    ),
});
export type ReplacementHistory = z.infer<typeof replacementHistorySchema>;

const reasonCounts = {
  blocked: z.number().int(),
  slow: z.number().int(),
  no_connect: z.number().int(),
  other: z.number().int(),
};

export const replacementSubnetsQuerySchema = z.object({ after: afterSchema });

export const replacementStatsSchema = z.object({
  total: z.number().int().describe('Replacements in this pool since the shop began'),
  byReason: z.object(reasonCounts),
  waiting: z.number().int().describe('Replacements waiting for new stock now'),
  subnets: z
    .array(
      z.object({
        subnet: z.string(),
        total: z.number().int(),
        byReason: z.object(reasonCounts),
        blockedCustomers: z.number().int().describe('Customers who replaced an IP of it as blocked by a target'),
        lastAt: z.string(),
      }),
    )
    .describe("The replaced IPs' subnets since their last swap, the most flagged as blocked first"),
  next: z.string().nullable(),
});
export type ReplacementStats = z.infer<typeof replacementStatsSchema>;
