/**
 * Automatic top-up of residential data (docs/decisions/2026-11-29-automatic-top-up.md): when what is left falls under
 * the customer's threshold, the shop buys the amount they chose on their saved card, within their caps. The rules and
 * words here are the server's and the Residential tab's; the schemas that check requests are in schemas/top-up.ts.
 */

import { CUSTOM_AMOUNT_MAX, CUSTOM_AMOUNT_MIN } from './products.ts';

export const TOP_UP_GB_MIN = CUSTOM_AMOUNT_MIN;
export const TOP_UP_GB_MAX = CUSTOM_AMOUNT_MAX;
export const TOP_UP_THRESHOLD_GB_MAX = CUSTOM_AMOUNT_MAX;
/** The most top-ups a day a customer may allow (attempts that failed count too, so a bad card is not charged again and again). */
export const TOP_UPS_PER_DAY_MAX = 3;
export const TOP_UP_CAP_DOLLARS_MAX = 100_000;
/** Failed payments in a row after which top-up switches itself off. */
export const TOP_UP_FAILURES_MAX = 3;
/** How long after a failed payment the next attempt may come. */
export const TOP_UP_RETRY_MINUTES = 60;
/** History entries on the tab and in the API. */
export const TOP_UP_HISTORY_SIZE = 20;

export type TopUpStatus = 'charging' | 'paid' | 'failed' | 'needs_action';

export const TOP_UP_DEFAULTS = { thresholdGb: 5, amountGb: 10, monthlyCapDollars: 200, maxPerDay: 3 } as const;

export const topUpMessages = {
  thresholdRule: `The threshold is a whole number of GB from 1 to ${TOP_UP_THRESHOLD_GB_MAX.toLocaleString('en-US')}.`,
  amountRule: `The amount is a whole number of GB from ${TOP_UP_GB_MIN} to ${TOP_UP_GB_MAX.toLocaleString('en-US')}.`,
  capRule: `The monthly cap is a whole number of dollars from 1 to ${TOP_UP_CAP_DOLLARS_MAX.toLocaleString('en-US')}.`,
  perDayRule: `Top-ups a day are 1 to ${TOP_UPS_PER_DAY_MAX}.`,
  needCard: 'Save a card before turning on automatic top-up.',
  capBelowOneTopUp: (cap: string, price: string) =>
    `The monthly cap of ${cap} is less than one top-up (${price}): raise the cap or buy less at a time.`,
  saved: 'Automatic top-up saved.',
  turnedOn: 'Automatic top-up is on.',
  turnedOff: 'Automatic top-up is off.',
  cardSaved: 'Card saved: you can turn automatic top-up on.',
  cardRemoved: 'Card removed: automatic top-up is off.',
  loadFailed: 'Failed to load automatic top-up',
  saveFailed: 'Failed to save automatic top-up',
  cardFailed: 'Failed to open the card page',
  removeFailed: 'Failed to remove the card',
  switchedOff: `Automatic top-up switched itself off after ${TOP_UP_FAILURES_MAX} failed payments in a row. Check your card, then turn it on again.`,
  declined: 'The card was declined.',
  unconfirmed:
    'The payment provider could not confirm this payment. No data was added; if your statement shows the charge, contact support.',
  waitingForStock: 'Waiting: the last top-up waits for residential stock; the next starts once it is delivered.',
  noCardForProvider: 'Save a card again: the shop now takes payments through another provider.',
  needsAction: 'Your bank asks you to confirm this payment, which cannot be done automatically.',
  dailyLimitReached: (count: number) =>
    `Waiting: ${count} top-up${count === 1 ? '' : 's'} in the last 24 hours, the most you allowed.`,
  monthlyCapReached: 'Waiting: another top-up would pass your monthly cap.',
  retryAfter: (at: string) => `Waiting: the last payment failed; the next try is at ${at}.`,
  noSetupPage: 'This card page does not exist or belongs to another account.',
  setupUsed: 'This card page has been used: start again from the Residential tab.',
} as const;
