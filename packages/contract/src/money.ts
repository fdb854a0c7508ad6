/**
 * Money, written out the one way the shop writes it (en-US, the currency's symbol). Formatters are made once per shape
 * and currency: constructing an Intl.NumberFormat costs far more than formatting with one.
 */
const formats = new Map<string, Intl.NumberFormat>();

function formatOf(currency: string, wholeWhenRound: boolean): Intl.NumberFormat {
  const key = `${currency}:${wholeWhenRound}`;
  let format = formats.get(key);
  if (!format) {
    // The currency's own number of decimals (two for the dollar), or none for a round storefront price.
    const decimals = wholeWhenRound ? { maximumFractionDigits: 0 } : {};
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency, ...decimals });
    formats.set(key, format);
  }
  return format;
}

/** An amount in cents of a currency, as receipts and invoices show it: 1125, 'usd' → $11.25; 500 → $5.00. */
export function formatMoney(cents: number, currency: string): string {
  return formatOf(currency.toUpperCase(), false).format(cents / 100);
}

/** A dollar price as the storefront shows prices: a round amount without cents ($5), any other with them ($2.50). */
export function formatUsd(amount: number): string {
  return formatOf('USD', Number.isInteger(amount)).format(amount);
}
