import {
  type AdminTab,
  type AlertKind,
  counted,
  formatDate,
  PRODUCTS,
  type ProductId,
  shortId,
} from '@storefront/contract';
import { maskedAddress } from '../../lib/mailer.ts';

/** What each kind of alert records (alerts.details), and is told with. */
export interface AlertDetails {
  order_waiting: {
    orderId: string;
    productId: ProductId;
    quantity: number;
    customerEmail: string;
    /** When it was paid (ISO). */
    since: string;
    /** A custom PK1 order waits for an administrator to fulfil it, not for the pool. */
    custom: boolean;
  };
  low_stock: { productId: ProductId; available: number; threshold: number };
  job_stuck: {
    failuresInARow: number;
    lastError: string | null;
    /** The last success (ISO), or null when it never succeeded; then `firstRunAt` says since when. */
    lastSuccessAt: string | null;
    firstRunAt: string;
    intervalSeconds: number | null;
  };
  outbox_failing: {
    messageId: string;
    /** The recipient (told masked: what matters is the mail server, not who). */
    to: string;
    subject: string;
    attempts: number;
    lastError: string;
    /** When the message was written (ISO). */
    since: string;
  };
}

/** A time in an alert's sentence, in UTC (e-mails and the console say the same). */
export const atTime = (iso: string) => `${formatDate(iso, 'date-time', 'UTC')} UTC`;

const units = (productId: ProductId, amount: number) =>
  PRODUCTS[productId].unit === 'gb' ? `${amount.toLocaleString('en-US')} GB` : `${amount.toLocaleString('en-US')} IPs`;

/** Ends a sentence that may end with an error's own words. */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

export interface AlertText {
  /** One sentence with the figures: the console's line, the e-mail's paragraph, a digest's item. */
  summary: string;
  /** What a person does about it (the e-mail says it under the summary). */
  advice: string;
  /** Where in the admin console it is acted on. */
  tab: AdminTab | null;
}

/** What a person does about several alerts of a kind (a digest's advice). */
export const KIND_ADVICE: Record<AlertKind, string> = {
  order_waiting:
    'Upload IPs or raise the residential pool in the admin console (waiting orders are delivered at once, oldest ' +
    'first); custom orders are fulfilled under Custom Ordering.',
  low_stock:
    'Upload IPs or raise the residential pool before it runs out: an order paid with no stock waits until there is.',
  job_stuck:
    'Renewals, expiries, reminders and e-mails wait while it is stuck: look for "periodic job failed" in the log of ' +
    'the instances that run it (the server, or `node . jobs`).',
  outbox_failing:
    'Check the mail server (SMTP_URL) and "e-mail not sent; it will be retried" in the log. The messages are tried ' +
    'again with a growing delay, for about two days.',
};

/** The words of an alert, from its kind and details. */
export function describeAlert(kind: AlertKind, details: Record<string, unknown>): AlertText {
  switch (kind) {
    case 'order_waiting': {
      const d = details as unknown as AlertDetails['order_waiting'];
      const what = `${PRODUCTS[d.productId].label}, ${units(d.productId, d.quantity)}`;
      const order = `${d.custom ? 'Custom order' : 'Order'} #${shortId(d.orderId, 8)} of ${d.customerEmail}`;
      return d.custom
        ? {
            summary: `${order} (${what}), paid ${atTime(d.since)}, waits to be fulfilled.`,
            advice: 'Fulfil it with its endpoints under Custom Ordering in the admin console.',
            tab: 'custom_ordering',
          }
        : {
            summary: `${order} (${what}), paid ${atTime(d.since)}, waits for stock.`,
            advice:
              PRODUCTS[d.productId].unit === 'gb'
                ? 'Raise the residential pool in the admin console: waiting orders are delivered at once, oldest first.'
                : 'Upload IPs to the pool in the admin console: waiting orders are delivered at once, oldest first.',
            tab: 'inventory',
          };
    }
    case 'low_stock': {
      const d = details as unknown as AlertDetails['low_stock'];
      return {
        summary: `${PRODUCTS[d.productId].label}: ${units(d.productId, d.available)} free, below the alert level of ${units(d.productId, d.threshold)}.`,
        advice:
          PRODUCTS[d.productId].unit === 'gb'
            ? 'Raise the residential pool before it runs out: an order paid with no stock waits until there is.'
            : 'Upload IPs before the pool runs out: an order paid with no stock waits until there is.',
        tab: 'inventory',
      };
    }
    case 'job_stuck': {
      const d = details as unknown as AlertDetails['job_stuck'];
      const summary =
        d.failuresInARow >= 3
          ? `The periodic job failed ${d.failuresInARow} times in a row${d.lastError ? `: ${d.lastError}` : '.'}`
          : d.lastSuccessAt
            ? `The periodic job has not succeeded since ${atTime(d.lastSuccessAt)} (three runs of ${d.intervalSeconds} s).`
            : `The periodic job has not succeeded since it first ran, ${atTime(d.firstRunAt)}.`;
      return { summary: sentence(summary), advice: KIND_ADVICE.job_stuck, tab: null };
    }
    case 'outbox_failing': {
      const d = details as unknown as AlertDetails['outbox_failing'];
      return {
        summary: sentence(
          `An e-mail to ${maskedAddress(d.to)} ("${d.subject}") has not been sent since ${atTime(d.since)}, after ` +
            `${counted(d.attempts, 'try', 'tries')}: ${d.lastError}`,
        ),
        advice:
          'Check the mail server (SMTP_URL) and "e-mail not sent; it will be retried" in the log. The message is tried ' +
          'again with a growing delay, for about two days.',
        tab: null,
      };
    }
  }
}
