import { describe, expect, it } from 'vitest';
import { ordersOf, pageSizeOptions, relativeAge, tabOf, usageColor, viewerRows } from './proxies-model.ts';

const order = (id: string, product_id: 'isp_proxies' | 'pk1_isp_proxies', purchase_time: string) => ({
  id,
  product_id,
  purchase_time,
  expiration_time: null,
  proxies: [],
  processing: false,
  cancelled: false,
  payment_failed: false,
  expired: false,
});

describe('proxies page model', () => {
  it('reads the tab and its aliases', () => {
    expect(tabOf(null)).toBe('isp_proxies');
    expect(tabOf('pk1')).toBe('pk1_isp_proxies');
    expect(tabOf('residential')).toBe('residential_proxies');
    expect(tabOf('pk1_isp_proxies')).toBe('pk1_isp_proxies');
    expect(tabOf('nonsense')).toBe('isp_proxies');
  });

  it('lists a product newest first', () => {
    const list = [
      order('a', 'isp_proxies', '2026-01-01'),
      order('b', 'pk1_isp_proxies', '2026-02-01'),
      order('c', 'isp_proxies', '2026-03-01'),
    ];
    expect(ordersOf(list, 'isp_proxies').map((item) => item.id)).toEqual(['c', 'a']);
  });

  it('offers Show all only when the count differs from 5, 10 and 25', () => {
    expect(pageSizeOptions(10).map((option) => option.label)).toEqual(['5', '10', '25']);
    expect(pageSizeOptions(50).map((option) => option.label)).toEqual(['5', '10', '25', 'Show all']);
  });

  it('sizes the viewer between 5 and 15 rows, and colours usage', () => {
    expect(viewerRows(2)).toBe(5);
    expect(viewerRows(9)).toBe(9);
    expect(viewerRows(500)).toBe(15);
    expect([usageColor(81), usageColor(80), usageColor(61), usageColor(60)]).toEqual([
      'red',
      'yellow',
      'yellow',
      'green',
    ]);
  });

  it('writes a relative age', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(relativeAge('2026-11-19T12:00:00Z', now)).toBe('3 days ago');
    expect(relativeAge('2026-11-22T11:59:30Z', now)).toBe('just now');
  });
});
