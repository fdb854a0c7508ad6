import { describe, expect, it } from 'vitest';
import { planForProduct, productOfPlanName, stockLabel } from './products.ts';

describe('plan matching (spec section 3)', () => {
  it('matches by name: pk1 wins over isp, residential by name', () => {
    expect(productOfPlanName('PK1 ISP Proxies')).toBe('pk1_isp_proxies');
    expect(productOfPlanName('pk1_isp_proxies')).toBe('pk1_isp_proxies');
    expect(productOfPlanName('Elite ISP Proxies')).toBe('isp_proxies');
    expect(productOfPlanName('Residential Proxies')).toBe('residential_proxies');
    expect(productOfPlanName('Something else')).toBeUndefined();
  });

  it('finds a plan by id first, then by name', () => {
    const plans = [
      { id: 'a', name: 'Elite ISP' },
      { id: 'b', name: 'PK1 line' },
    ];
    expect(planForProduct(plans, 'isp_proxies')?.id).toBe('a');
    expect(planForProduct(plans, 'pk1_isp_proxies')?.id).toBe('b');
    expect(planForProduct(plans, 'residential_proxies')).toBeUndefined();
  });

  it('writes stock the way the storefront shows it', () => {
    expect(stockLabel('isp_proxies', 1508)).toBe('1,508 IPs in stock');
    expect(stockLabel('residential_proxies', 500)).toBe('500 GB available');
    expect(stockLabel('pk1_isp_proxies', 0)).toContain('24 hours');
  });
});
