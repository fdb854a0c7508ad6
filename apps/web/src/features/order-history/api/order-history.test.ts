import { describe, expect, it } from 'vitest';
import { newestFirst, pageWithin } from './order-history.ts';

const entry = (id: string, purchased_at: string) => ({
  order_id: id,
  stripe_id: `in_${id}`,
  status: 'paid',
  purchased_at,
  product_ids: ['isp_proxies'],
  total: 100,
  currency: 'usd',
});

describe('order history', () => {
  it('sorts newest first', () => {
    const sorted = newestFirst([
      entry('a', '2026-01-01T00:00:00Z'),
      entry('b', '2026-03-01T00:00:00Z'),
      entry('c', '2026-02-01T00:00:00Z'),
    ]);
    expect(sorted.map((item) => item.order_id)).toEqual(['b', 'c', 'a']);
  });

  it('goes back to page 1 when the page no longer exists', () => {
    expect(pageWithin(3, 25, 10)).toBe(3);
    expect(pageWithin(3, 20, 10)).toBe(1);
    expect(pageWithin(2, 0, 10)).toBe(1);
  });
});
