import {
  formatMoney,
  paths,
  proxiesTabPath,
  TOP_UP_FAILURES_MAX,
  TOP_UP_RETRY_MINUTES,
  topUpMessages,
} from '@storefront/contract';
import { actionEmail, type Branding } from '../../lib/branded-email.ts';
import type { Mail } from '../../lib/mailer.ts';

/**
 * A top-up whose payment did not go through: nothing was added, and the customer can buy by hand. The last of
 * TOP_UP_FAILURES_MAX in a row also says that top-up switched itself off.
 */
export function topUpFailedEmail(
  brand: Branding,
  to: string,
  topUp: {
    amountGb: number;
    amountCents: number;
    currency: string;
    message: string;
    switchedOff: boolean;
    /** Top-up is still on with a card: the next try comes after the wait. */
    triesAgain: boolean;
  },
): Mail {
  const price = formatMoney(topUp.amountCents, topUp.currency);
  return actionEmail(brand, to, {
    subject: topUp.switchedOff
      ? 'Automatic top-up is switched off'
      : `Automatic top-up of ${topUp.amountGb} GB did not go through`,
    heading: topUp.switchedOff ? 'Automatic top-up is switched off' : 'Your automatic top-up did not go through',
    body: `We tried to buy ${topUp.amountGb} GB of residential data for ${price} on your saved card, and the payment did not go through: ${topUp.message} No data was added.${
      topUp.switchedOff
        ? ` After ${TOP_UP_FAILURES_MAX} failed payments in a row, automatic top-up has switched itself off: check your card, then turn it on again on the Residential tab (${brand.appUrl}${proxiesTabPath('residential_proxies')}).`
        : topUp.triesAgain
          ? ` We try again in ${TOP_UP_RETRY_MINUTES} minutes at the earliest.`
          : ''
    } To keep your tools running now, buy the data by hand.`,
    action: 'Buy residential data',
    url: `${brand.appUrl}${paths.purchase}`,
    footnote: topUp.switchedOff
      ? topUpMessages.switchedOff
      : 'Change or turn off automatic top-up on the Residential tab.',
  });
}
