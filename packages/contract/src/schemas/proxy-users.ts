// The zod schemas of proxy-users.ts: what the server validates and serialises, and the API reference; the Proxies
// page's forms load them with their own chunk (docs/decisions/2026-11-29-forms-check-their-schema.md).
import { z } from 'zod';
import {
  PROXY_USER_IPS_MAX,
  PROXY_USER_MAX_CONNECTIONS,
  PROXY_USER_NAME_PATTERN,
  PROXY_USER_NOTE_MAX,
  PROXY_USER_PASSWORD_PATTERN,
  PROXY_USER_RESET_DAY_MAX,
  proxyUserMessages,
} from '../proxy-users.ts';
import { COUNTRY_OPTIONS } from '../residential.ts';

const COUNTRY_CODES = new Set(COUNTRY_OPTIONS.map((country) => country.id));

export const proxyUserNameSchema = z
  .string({ error: proxyUserMessages.nameRule })
  .regex(PROXY_USER_NAME_PATTERN, { error: proxyUserMessages.nameRule })
  .describe("1 to 24 lower-case letters and digits, unique among the account's proxy users");

export const proxyUserPasswordSchema = z
  .string({ error: proxyUserMessages.passwordRule })
  .regex(PROXY_USER_PASSWORD_PATTERN, { error: proxyUserMessages.passwordRule })
  .describe('8 to 32 letters and digits');

const noteSchema = z
  .string({ error: proxyUserMessages.noteTooLong })
  .max(PROXY_USER_NOTE_MAX, { error: proxyUserMessages.noteTooLong })
  .nullable()
  .describe('Plain text for the customer; an empty note is none');

/**
 * An allowance: none (draws on the account's balance), a total cap, or a monthly cap that starts again on resetDay
 * (1-28, UTC). Amounts in KB (1 GB = 1024 × 1000 KB), as every residential amount of the API.
 */
export const proxyUserAllowanceSchema = z
  .object(
    {
      type: z.enum(['none', 'total', 'monthly'], { error: proxyUserMessages.allowanceShape }),
      limitInKb: z
        .number({ error: proxyUserMessages.allowanceAmount })
        .int({ error: proxyUserMessages.allowanceAmount })
        .min(0, { error: proxyUserMessages.allowanceAmount })
        .max(Number.MAX_SAFE_INTEGER, { error: proxyUserMessages.allowanceAmount })
        .nullable()
        .optional(),
      resetDay: z
        .number({ error: proxyUserMessages.resetDayRule })
        .int({ error: proxyUserMessages.resetDayRule })
        .min(1, { error: proxyUserMessages.resetDayRule })
        .max(PROXY_USER_RESET_DAY_MAX, { error: proxyUserMessages.resetDayRule })
        .nullable()
        .optional(),
    },
    { error: proxyUserMessages.allowanceShape },
  )
  .superRefine((value, context) => {
    const limit = value.limitInKb ?? null;
    const day = value.resetDay ?? null;
    const shaped =
      value.type === 'none'
        ? limit === null && day === null
        : value.type === 'total'
          ? limit !== null && day === null
          : limit !== null && day !== null;
    if (!shaped) {
      const path =
        value.type !== 'none' && limit === null ? ['limitInKb'] : value.type === 'monthly' ? ['resetDay'] : [];
      context.addIssue({ code: 'custom', message: proxyUserMessages.allowanceShape, path });
    }
  })
  .transform((value) => ({ type: value.type, limitInKb: value.limitInKb ?? null, resetDay: value.resetDay ?? null }));
export type ProxyUserAllowanceRequest = z.input<typeof proxyUserAllowanceSchema>;

const countriesSchema = z
  .array(
    z.string({ error: proxyUserMessages.countryUnknown('?') }).refine((code) => COUNTRY_CODES.has(code), {
      error: (issue) => proxyUserMessages.countryUnknown(String(issue.input)),
    }),
    { error: 'countries must be a list of country codes, such as ["US", "GB"].' },
  )
  .max(COUNTRY_CODES.size, { error: 'countries must be a list of country codes, such as ["US", "GB"].' })
  .describe('ISO codes of the countries its lines may target; empty: every country');

const maxConnectionsSchema = z
  .number({ error: proxyUserMessages.maxConnectionsRule })
  .int({ error: proxyUserMessages.maxConnectionsRule })
  .min(1, { error: proxyUserMessages.maxConnectionsRule })
  .max(PROXY_USER_MAX_CONNECTIONS, { error: proxyUserMessages.maxConnectionsRule })
  .nullable()
  .describe('Simultaneous connections through the gateway; null: no limit of its own');

const ipsSchema = z
  .array(
    z.string({ error: 'Each authorised IP is a text such as 203.0.113.7.' }).max(100, {
      error: 'An authorised IP has at most 100 characters.',
    }),
    { error: 'authorizedIps must be a list of addresses, such as ["203.0.113.7"].' },
  )
  .max(PROXY_USER_IPS_MAX, { error: proxyUserMessages.ipsTooMany })
  .describe('At most 3 single addresses whose connections need no credentials, for this proxy user');

export const createProxyUserRequestSchema = z.object({
  name: proxyUserNameSchema,
  password: proxyUserPasswordSchema.optional().describe('8 to 32 letters and digits; absent: one is generated'),
  note: noteSchema.optional(),
  allowance: proxyUserAllowanceSchema.optional().describe('Absent: none'),
  countries: countriesSchema.optional(),
  maxConnections: maxConnectionsSchema.optional(),
  authorizedIps: ipsSchema.optional(),
});
export type CreateProxyUserRequest = z.input<typeof createProxyUserRequestSchema>;

/** A change: only what is given changes. */
export const updateProxyUserRequestSchema = z.object({
  name: proxyUserNameSchema.optional(),
  note: noteSchema.optional(),
  paused: z.boolean({ error: 'paused must be true or false.' }).optional(),
  allowance: proxyUserAllowanceSchema.optional(),
  countries: countriesSchema.optional(),
  maxConnections: maxConnectionsSchema.optional(),
  authorizedIps: ipsSchema.optional(),
});
export type UpdateProxyUserRequest = z.input<typeof updateProxyUserRequestSchema>;

export const newProxyUserPasswordRequestSchema = z.object({
  password: proxyUserPasswordSchema.optional().describe('8 to 32 letters and digits; absent: one is generated'),
});
export type NewProxyUserPasswordRequest = z.input<typeof newProxyUserPasswordRequestSchema>;

export const proxyUserIdParamsSchema = z.object({
  id: z.string().min(1).max(100),
});

export const proxyUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string().describe("The gateway username: the account's, an underscore and the name"),
  note: z.string().nullable(),
  paused: z.boolean(),
  allowance: z.object({
    type: z.enum(['none', 'total', 'monthly']),
    limitInKb: z.number().nullable(),
    resetDay: z.number().nullable(),
  }),
  usedInKb: z.number().describe('Everything it carried'),
  periodUsedInKb: z.number().describe('What its allowance counts now: everything (total) or this month (monthly)'),
  periodStart: z.string().nullable().describe('YYYY-MM-DD: the first day of the current monthly period'),
  countries: z.array(z.string()),
  maxConnections: z.number().nullable(),
  authorizedIps: z.array(z.string()),
  createdAt: z.string(),
});
export type ProxyUser = z.infer<typeof proxyUserSchema>;

export const proxyUserListSchema = z.object({
  proxyUsers: z.array(proxyUserSchema).describe('Oldest first; at most 100'),
});
export type ProxyUserList = z.infer<typeof proxyUserListSchema>;

export const createdProxyUserSchema = proxyUserSchema.extend({
  password: z.string().describe('Its password, shown with this answer'),
});
export type CreatedProxyUser = z.infer<typeof createdProxyUserSchema>;

export const proxyUserPasswordAnswerSchema = z.object({ password: z.string() });
export type ProxyUserPassword = z.infer<typeof proxyUserPasswordAnswerSchema>;

/** A position in the history: the change's time and id, as a previous page gave it in `next`. */
export const PROXY_USER_HISTORY_POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z~[0-9a-f-]{36}$/;

export const allowanceHistoryQuerySchema = z.object({
  before: z
    .string()
    .regex(PROXY_USER_HISTORY_POSITION, { error: 'before is the position a previous page gave as next.' })
    .optional(),
});

const allowanceStateSchema = z.object({
  type: z.enum(['none', 'total', 'monthly']),
  limitInKb: z.number().nullable(),
  resetDay: z.number().nullable(),
});

export const allowanceHistorySchema = z.object({
  changes: z.array(
    z.object({
      id: z.string(),
      changedAt: z.string(),
      changedBy: z.string().describe("Who made it: the customer's e-mail"),
      from: allowanceStateSchema,
      to: allowanceStateSchema,
    }),
  ),
  next: z.string().nullable().describe('The position of the page after this one (as before), null at the oldest'),
});
export type AllowanceHistory = z.infer<typeof allowanceHistorySchema>;
