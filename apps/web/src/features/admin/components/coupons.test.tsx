// @vitest-environment happy-dom
import type { AdminCoupon, CouponRedemption } from '@storefront/contract';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ActiveCoupons, CouponRedemptions } from './coupons.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const redemption = (entry: Partial<CouponRedemption> & Pick<CouponRedemption, 'promoCodeId'>): CouponRedemption => ({
  couponCode: 'LAUNCH',
  totalRedemptions: 1,
  uniqueUsers: 1,
  percentOff: null,
  amountOff: null,
  currency: 'usd',
  deletedAt: null,
  ...entry,
});

describe('Coupon Redemptions', () => {
  it("keeps a deleted coupon's code with its discount, apart from a newer coupon with the same code", async () => {
    fakeApi({
      'GET /api/admin/coupons/redemptions': () => ({
        body: {
          totalCoupons: 1,
          coupons: [
            redemption({
              promoCodeId: 'old',
              percentOff: 20,
              totalRedemptions: 3,
              uniqueUsers: 2,
              deletedAt: '2026-11-25T10:00:00.000Z',
            }),
            redemption({ promoCodeId: 'new', amountOff: 500 }),
          ],
          next: null,
        },
      }),
      'GET /api/admin/coupons/redemptions/old/emails': ({ url }) => ({
        body: url.searchParams.get('after')
          ? { emails: [{ email: 'bob@example.com', count: 2 }], next: null }
          : { emails: [{ email: 'ann@example.com', count: 1 }], next: 'ann@example.com' },
      }),
    });
    renderWithApp(<CouponRedemptions />);
    expect(
      await screen.findByText('1 coupon in the shop. The codes used in paid checkouts, most used first:'),
    ).toBeTruthy();
    const [, old, fresh] = screen.getAllByRole('row');
    expect(within(old as HTMLElement).getByText('LAUNCH')).toBeTruthy();
    expect(within(old as HTMLElement).getByText('20% off')).toBeTruthy();
    expect(
      within(old as HTMLElement)
        .getByText('Deleted')
        .closest('[title]')
        ?.getAttribute('title'),
    ).toBe('Coupon deleted Nov 25, 2026');
    expect(within(fresh as HTMLElement).getByText('$5.00 off')).toBeTruthy();
    expect(within(fresh as HTMLElement).queryByText('Deleted')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show who used LAUNCH (deleted coupon)' }));
    expect(await screen.findByRole('cell', { name: 'ann@example.com' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByRole('cell', { name: 'bob@example.com' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Download LAUNCH customers (CSV)' }).getAttribute('href')).toBe(
      '/api/admin/coupons/redemptions/old/emails.csv',
    );
  });
});

describe('Active Coupons: delete', () => {
  const coupon: AdminCoupon = {
    id: 'c1',
    name: 'Launch',
    percentOff: 20,
    amountOff: null,
    currency: 'usd',
    duration: 'once',
    durationInMonths: null,
    created: 1_795_000_000,
    products: [{ id: 'isp_proxies', name: 'Elite ISP Proxies' }],
    promoCodes: [{ id: 'p1', code: 'LAUNCH', active: true, timesRedeemed: 3, maxRedemptions: null, expiresAt: null }],
  };

  it('says the redemptions stay and offers switching the code off; the answer is shown', async () => {
    const calls = fakeApi({
      'GET /api/admin/coupons': () => ({ body: { coupons: [coupon] } }),
      'DELETE /api/admin/coupons/c1': () => ({
        body: { message: 'Coupon Launch deleted. Its 3 redemptions stay listed under Coupon Redemptions.' },
      }),
    });
    renderWithApp(<ActiveCoupons />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Launch' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete coupon?' });
    expect(within(dialog).getByText(/Its 3 redemptions stay listed under Coupon Redemptions/)).toBeTruthy();
    expect(within(dialog).getByText('To stop it only for a while, switch its code off instead.')).toBeTruthy();
    expect(within(dialog).queryByText(/removed/)).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Coupon' }));
    expect(
      await screen.findByText('Coupon Launch deleted. Its 3 redemptions stay listed under Coupon Redemptions.'),
    ).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/admin/coupons/c1')).toBe(true);
  });
});
