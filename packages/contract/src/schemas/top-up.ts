// The zod schemas of top-up.ts: what the server validates and serialises, and the API reference.
import { z } from 'zod';
import {
  TOP_UP_CAP_DOLLARS_MAX,
  TOP_UP_GB_MAX,
  TOP_UP_GB_MIN,
  TOP_UP_THRESHOLD_GB_MAX,
  TOP_UPS_PER_DAY_MAX,
  topUpMessages,
} from '../top-up.ts';

const whole = (min: number, max: number, words: string) =>
  z.number({ error: words }).int({ error: words }).min(min, { error: words }).max(max, { error: words });

/** PUT /api/residential/top-up: the whole of the settings. */
export const topUpSettingsRequestSchema = z.strictObject(
  {
    enabled: z.boolean({ error: 'enabled must be true or false.' }),
    thresholdGb: whole(1, TOP_UP_THRESHOLD_GB_MAX, topUpMessages.thresholdRule),
    amountGb: whole(TOP_UP_GB_MIN, TOP_UP_GB_MAX, topUpMessages.amountRule),
    monthlyCapDollars: whole(1, TOP_UP_CAP_DOLLARS_MAX, topUpMessages.capRule),
    maxPerDay: whole(1, TOP_UPS_PER_DAY_MAX, topUpMessages.perDayRule),
  },
  { error: 'Send enabled, thresholdGb, amountGb, monthlyCapDollars and maxPerDay only.' },
);
export type TopUpSettingsRequest = z.infer<typeof topUpSettingsRequestSchema>;

export const topUpEntrySchema = z.object({
  id: z.string(),
  startedAt: z.string(),
  amountGb: z.number().int(),
  amountCents: z.number().int(),
  currency: z.string(),
  status: z
    .enum(['charging', 'paid', 'failed', 'needs_action'])
    .describe(
      'charging (on its way); paid (the data was added); failed; needs_action (the bank asked for the customer)',
    ),
  message: z.string().nullable().describe('Why a payment did not go through, in words'),
  orderId: z.string().nullable().describe('The order in Order History, once paid'),
});
export type TopUpEntry = z.infer<typeof topUpEntrySchema>;

export const topUpSchema = z.object({
  enabled: z.boolean(),
  thresholdGb: z.number().int().describe('A top-up starts when the data left falls under this'),
  amountGb: z.number().int().describe('GB bought by each top-up'),
  monthlyCapDollars: z.number().int().describe('The most the top-ups of one calendar month (UTC) may cost together'),
  maxPerDay: z.number().int().describe('The most top-ups (failed attempts included) in any 24 hours'),
  card: z
    .object({ label: z.string().describe('Such as "Visa •••• 4242"'), savedAt: z.string() })
    .nullable()
    .describe('The saved card top-ups are charged to; null when none is saved'),
  unitPriceCents: z
    .number()
    .int()
    .describe("One GB's price now: a top-up costs amountGb × this (coupons do not apply)"),
  currency: z.string(),
  spentThisMonthCents: z.number().int().describe('Paid or being paid by top-ups this calendar month (UTC)'),
  topUpsLastDay: z.number().int(),
  failuresInARow: z.number().int(),
  switchedOffAt: z.string().nullable().describe('When top-up switched itself off after failed payments'),
  waiting: z.string().nullable().describe('Why no top-up would start now although it is on (a cap, a failed payment)'),
  history: z.array(topUpEntrySchema).describe('The latest top-ups, newest first'),
});
export type TopUp = z.infer<typeof topUpSchema>;

export const topUpCardPageSchema = z.object({
  url: z.string().describe("The payment provider's page where the card is saved (Stripe Checkout in setup mode)"),
});
export type TopUpCardPage = z.infer<typeof topUpCardPageSchema>;

/** The sandbox's page standing in for Stripe's: which test card to save. */
export const sandboxCardSetupSchema = z.object({
  id: z.string(),
  used: z.boolean(),
  returnUrl: z.string(),
});
export type SandboxCardSetup = z.infer<typeof sandboxCardSetupSchema>;

export const sandboxCardSetupRequestSchema = z.strictObject(
  { card: z.enum(['ok', 'declined'], { error: 'card is ok or declined.' }) },
  { error: 'Send card only.' },
);
