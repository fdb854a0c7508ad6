import {
  formatDate,
  formatMoney,
  PRODUCTS,
  type ProductId,
  paths,
  proxiesTabPath,
  shortId,
} from '@storefront/contract';
import { actionEmail, type Branding } from '../../lib/branded-email.ts';
import type { Mail } from '../../lib/mailer.ts';

const day = (date: Date) => formatDate(date, 'long-date', 'UTC');
const when = (date: Date) => `${day(date)} (UTC)`;

export interface OrderFacts {
  orderId: string;
  productId: ProductId;
  quantity: number;
}

const what = (order: OrderFacts) =>
  `${PRODUCTS[order.productId].label}, ${order.quantity} ${PRODUCTS[order.productId].unit === 'gb' ? 'GB' : 'IPs'} (order #${shortId(order.orderId, 8)})`;
const proxiesUrl = (brand: Branding, order: OrderFacts) => `${brand.appUrl}${proxiesTabPath(order.productId)}`;

export function receiptEmail(
  brand: Branding,
  to: string,
  order: OrderFacts,
  payment: { amountCents: number; currency: string; invoiceUrl: string | null; renewal: boolean },
): Mail {
  return actionEmail(brand, to, {
    subject: `${payment.renewal ? 'Renewal receipt' : 'Receipt'}: ${formatMoney(payment.amountCents, payment.currency)} for ${PRODUCTS[order.productId].label}`,
    heading: payment.renewal ? 'Your subscription was renewed' : 'Thank you for your payment',
    body: `We received ${formatMoney(payment.amountCents, payment.currency)} for ${what(order)}.`,
    action: payment.invoiceUrl ? 'View invoice' : 'View your proxies',
    url: payment.invoiceUrl ?? proxiesUrl(brand, order),
    footnote: 'All sales are final. Your order history lists every payment with its invoice.',
  });
}

export function deliveredEmail(brand: Branding, to: string, order: OrderFacts): Mail {
  return actionEmail(brand, to, {
    subject: `Your ${PRODUCTS[order.productId].label} are ready`,
    heading: 'Your order has been delivered',
    body: `${what(order)} was waiting for stock and is now delivered. Your proxies are on the Proxies page.`,
    action: 'View your proxies',
    url: proxiesUrl(brand, order),
    footnote: 'Need help? Reach us through the chat community.',
  });
}

export function reminderEmail(
  brand: Branding,
  to: string,
  order: OrderFacts,
  renewsAt: Date,
  amountCents: number,
  currency: string,
): Mail {
  return actionEmail(brand, to, {
    subject: `${PRODUCTS[order.productId].label} renew on ${day(renewsAt)}`,
    heading: 'Your subscription renews in 3 days',
    body: `${what(order)} renews on ${when(renewsAt)} for ${formatMoney(amountCents, currency)}. To stop it, cancel the order on the Proxies page before then; the proxies then keep working until that date.`,
    action: 'Manage your proxies',
    url: proxiesUrl(brand, order),
    footnote: 'You receive this reminder once for every renewal.',
  });
}

export function paymentFailedEmail(
  brand: Branding,
  to: string,
  order: OrderFacts,
  graceEndsAt: Date,
  updateUrl: string,
): Mail {
  return actionEmail(brand, to, {
    subject: `Payment failed for ${PRODUCTS[order.productId].label}`,
    heading: 'We could not renew your subscription',
    body: `The renewal payment for ${what(order)} failed. Your proxies keep working until ${when(graceEndsAt)}; update your card before then, or the order expires and its IPs are released.`,
    action: 'Update your card',
    url: updateUrl,
    footnote: 'If you think this is a mistake, contact support through the chat community.',
  });
}

/** Replacements that waited for new stock are made: the old lines stop working, the new ones are in the list. */
export function replacementsDoneEmail(
  brand: Branding,
  to: string,
  order: OrderFacts,
  replaced: readonly { oldIp: string; newIp: string }[],
): Mail {
  return actionEmail(brand, to, {
    subject: `Your replacement ${replaced.length === 1 ? 'IP is' : 'IPs are'} ready`,
    heading: `Your replacement ${replaced.length === 1 ? 'IP is' : 'IPs are'} ready`,
    body: `${replaced.length === 1 ? 'An IP' : `${replaced.length} IPs`} of ${what(order)} waited for new stock and ${replaced.length === 1 ? 'has' : 'have'} now been replaced. Update your tools: the old ${replaced.length === 1 ? 'line no longer works' : 'lines no longer work'}.`,
    items: replaced.map((entry) => `${entry.oldIp} → ${entry.newIp}`),
    action: 'View your proxies',
    url: proxiesUrl(brand, order),
    footnote: "Every replacement is in the order's replacement history.",
  });
}

export function expiredEmail(brand: Branding, to: string, order: OrderFacts): Mail {
  return actionEmail(brand, to, {
    subject: `${PRODUCTS[order.productId].label} order #${shortId(order.orderId, 8)} has expired`,
    heading: 'Your order has expired',
    body: `${what(order)} has ended and its IPs were released. Your order history keeps every payment. You can buy new proxies at any time.`,
    action: 'Buy proxies',
    url: `${brand.appUrl}${paths.purchase}`,
    footnote: 'Thank you for your business.',
  });
}
