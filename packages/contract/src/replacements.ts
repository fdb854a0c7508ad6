// Replacing a bad static IP of an active Elite ISP or PK1 order (docs/decisions/2026-11-29-ip-replacements.md): the
// customer names the IPs and a reason, sees what it will use of the billing period's allowance, and confirms.
import { counted } from './plurals.ts';

export * from './replacement-reasons.ts';

/** History entries a page; the console's subnets a page. */
export const REPLACEMENTS_PAGE_SIZE = 20;
export const REPLACEMENT_SUBNETS_PAGE_SIZE = 25;

/**
 * How many of an order's IPs may be replaced per billing period: `percent` of its IPs rounded down, at least 1, none
 * when the operator turned replacements off (0 %).
 */
export function replacementAllowance(quantity: number, percent: number): number {
  if (percent <= 0 || quantity <= 0) return 0;
  return Math.max(1, Math.floor((quantity * percent) / 100));
}

export const replacementMessages = {
  notFound: 'Order not found',
  notStatic: 'Residential data has no IPs to replace.',
  notActive: 'Only the IPs of an active, delivered order can be replaced.',
  turnedOff: 'IP replacements are turned off in this shop.',
  historyFailed: 'Failed to load the replacement history',
  previewFailed: 'Failed to preview the replacement',
  replaceFailed: 'Failed to replace the IPs',
  overAllowance: (asked: number, left: number, limit: number) =>
    `This replaces ${counted(asked, 'IP', 'IPs')}, but ${left} of your ${limit} replacements this billing period ${left === 1 ? 'is' : 'are'} left.`,
  notInOrder: (addresses: readonly string[]) =>
    `${addresses.length === 1 ? 'This IP is' : 'These IPs are'} not in this order: ${addresses.join(', ')}.`,
  alreadyWaiting: (addresses: readonly string[]) => `Already waiting for a replacement: ${addresses.join(', ')}.`,
  replaced: (done: number, waiting: number) =>
    [
      done > 0
        ? `${counted(done, 'IP', 'IPs')} replaced: the new ${done === 1 ? 'line is' : 'lines are'} in your list.`
        : '',
      waiting > 0
        ? `${counted(waiting, 'IP waits', 'IPs wait')} for new stock: ${waiting === 1 ? 'it keeps' : 'they keep'} working until ${waiting === 1 ? 'its' : 'their'} replacement arrives.`
        : '',
    ]
      .filter(Boolean)
      .join(' '),
} as const;
