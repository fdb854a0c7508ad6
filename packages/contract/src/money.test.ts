import { describe, expect, it } from 'vitest';
import { formatMoney, formatUsd } from './money.ts';

describe('formatMoney', () => {
  it('writes cents of a currency with the currency’s decimals', () => {
    expect(formatMoney(1125, 'usd')).toBe('$11.25');
    expect(formatMoney(500, 'usd')).toBe('$5.00');
    expect(formatMoney(0, 'USD')).toBe('$0.00');
    expect(formatMoney(125_000_00, 'usd')).toBe('$125,000.00');
    expect(formatMoney(1999, 'eur')).toBe('€19.99');
  });
});

describe('formatUsd', () => {
  it('writes a storefront price without cents when it is round, with them otherwise', () => {
    expect(formatUsd(2.5)).toBe('$2.50');
    expect(formatUsd(5)).toBe('$5');
    expect(formatUsd(1250)).toBe('$1,250');
    expect(formatUsd(1250.5)).toBe('$1,250.50');
    expect(formatUsd(0.125)).toBe('$0.13');
  });

  it('keeps the two shapes apart for the same currency', () => {
    expect(formatUsd(5)).toBe('$5');
    expect(formatMoney(500, 'usd')).toBe('$5.00');
  });
});
