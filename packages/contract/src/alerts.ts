/**
 * What the shop tells its administrators about: a paid order waiting for stock (or for its custom
 * fulfilment), a pool below its alert level, the periodic job stuck, an e-mail failing for over an hour.
 */
export const ALERT_KINDS = ['order_waiting', 'low_stock', 'job_stuck', 'outbox_failing'] as const;

export type AlertKind = (typeof ALERT_KINDS)[number];

/** A kind's heading, in the admin console and in the e-mails' subjects. */
export const ALERT_KIND_TITLES: Record<AlertKind, string> = {
  order_waiting: 'Paid orders waiting',
  low_stock: 'Low stock',
  job_stuck: 'Periodic job stuck',
  outbox_failing: 'E-mails not sent',
};

/** At most this many open alerts of each kind are listed (the oldest); `counts` and `total` count them all. */
export const ALERTS_LISTED_MAX = 50;
