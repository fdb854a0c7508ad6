import type { Order } from '@storefront/contract';
import { describe, expect, it } from 'vitest';
import { overviewFigures } from './overview-data.ts';

const now = new Date('2026-06-01T00:00:00Z');
const order = (patch: Partial<Order>): Order => ({
  id: crypto.randomUUID(),
  product_id: 'isp_proxies',
  purchase_time: '2026-05-01T00:00:00Z',
  expiration_time: '2026-07-01T00:00:00Z',
  proxies: ['192.0.2.1:8000:u:p', '192.0.2.2:8000:u:p'],
  processing: false,
  cancelled: false,
  payment_failed: false,
  expired: false,
  ...patch,
});

describe('overviewFigures', () => {
  it('is zero and No Data without orders', () => {
    expect(overviewFigures([], [], now)).toEqual({ activeIsp: 0, activePk1: 0, residentialUsagePercent: null });
  });

  it('counts the proxies of active orders per product, not expired or processing ones', () => {
    const figures = overviewFigures(
      [
        order({}),
        order({ cancelled: true }),
        order({ expiration_time: '2026-05-31T00:00:00Z' }),
        // Ended by the server while its period's end lies ahead of the browser's clock (the sandbox clock moved).
        order({ expired: true, cancelled: true, proxies: [] }),
        order({ expired: true, proxies: ['192.0.2.3:8000:u:p'] }),
        order({ processing: true, proxies: [] }),
        order({ product_id: 'pk1_isp_proxies', proxies: ['203.0.113.9:1:u:p'] }),
      ],
      [],
      now,
    );
    expect(figures.activeIsp).toBe(4);
    expect(figures.activePk1).toBe(1);
  });

  it('gives residential usage in percent of all data bought', () => {
    const usage = { endpoint: 'gw:1', username: 'u', password: 'p' };
    const figures = overviewFigures(
      [],
      [
        { ...usage, usedInKb: 512_000, totalInKb: 1_024_000 },
        { ...usage, usedInKb: 0, totalInKb: 1_024_000 },
      ],
      now,
    );
    expect(figures.residentialUsagePercent).toBe(25);
  });
});
