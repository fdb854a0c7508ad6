import { describe, expect, it } from 'vitest';
import {
  bundlePrice,
  couponToSend,
  exceedsStock,
  parseCustomAmount,
  productOffer,
  visibleBundles,
} from './purchase-model.ts';

describe('purchase model', () => {
  it('hides bundles above the stock but always keeps Custom; PK1 has no Custom', () => {
    expect(visibleBundles('isp_proxies', 60)).toEqual([5, 10, 50, 'custom']);
    expect(visibleBundles('isp_proxies', undefined)).toEqual([5, 10, 50, 100, 200, 300, 500, 'custom']);
    expect(visibleBundles('pk1_isp_proxies', 80)).toEqual([5, 25, 50, 75]);
    expect(visibleBundles('residential_proxies', 0)).toEqual(['custom']);
  });

  it('keeps a custom amount between 1 and 10000; a non-number becomes 1', () => {
    expect(parseCustomAmount('abc')).toBe(1);
    expect(parseCustomAmount('')).toBe(1);
    expect(parseCustomAmount(0)).toBe(1);
    expect(parseCustomAmount('20000')).toBe(10_000);
    expect(parseCustomAmount('42')).toBe(42);
  });

  it('prices a bundle as unit price times quantity, and flags a quantity above the stock', () => {
    expect(bundlePrice(2.5, 5)).toBe(12.5);
    expect(bundlePrice(2.5, 10_000)).toBe(25_000);
    expect(exceedsStock(11, 10)).toBe(true);
    expect(exceedsStock(10, 10)).toBe(false);
    expect(exceedsStock(10, undefined)).toBe(false);
  });

  it('trims the coupon and drops an empty one', () => {
    expect(couponToSend('  welcome10 ')).toBe('welcome10');
    expect(couponToSend('   ')).toBeUndefined();
  });

  it('disables a product by its flag, and ISP and PK1 (not residential) on a pricing error', () => {
    const flags = [{ featureName: 'pk1_isp_proxies', isEnabled: false }];
    expect(productOffer('pk1_isp_proxies', [], false, flags).enabled).toBe(false);
    expect(productOffer('isp_proxies', undefined, true, flags)).toMatchObject({
      enabled: true,
      pricingError: true,
      price: 2.5,
    });
    expect(productOffer('residential_proxies', undefined, true, flags)).toMatchObject({
      pricingError: false,
      price: 5,
    });
    expect(
      productOffer('isp_proxies', [{ id: 'isp_proxies', name: 'Elite ISP', price: 3, stock: 7 }], false, []),
    ).toMatchObject({
      price: 3,
      stock: 7,
    });
  });
});
