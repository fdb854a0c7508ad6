// @vitest-environment happy-dom
import { COUPON_DURATIONS, couponMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { CouponForm } from './coupon-form.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const options = () => ({
  body: {
    durationOptions: COUPON_DURATIONS,
    products: [
      { id: 'isp_proxies', name: 'Elite ISP Proxies', active: true },
      { id: 'pk1_isp_proxies', name: 'PK1 ISP Proxies', active: true },
    ],
  },
});
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create Coupon' }));

describe('Coupon form', () => {
  it("shows the spec's words under each field left wrong, and sends nothing", async () => {
    const calls = fakeApi({ 'GET /api/admin/coupons/options': options });
    renderWithApp(<CouponForm onDone={() => {}} />);
    await screen.findByLabelText('Elite ISP Proxies');
    type('Name', 'ab');
    submit();
    expect(await screen.findByText(couponMessages.codeRequired)).toBeTruthy();
    expect(screen.getByText(couponMessages.nameTooShort)).toBeTruthy();
    expect(screen.getByText(couponMessages.percentAboveZero)).toBeTruthy();
    expect(screen.getByText(couponMessages.productRequired)).toBeTruthy();

    type('Coupon code', 'ABCDEFGHIJKLMNOP');
    type('Percent off', '150');
    submit();
    expect(await screen.findByText(couponMessages.codeTooLong)).toBeTruthy();
    expect(screen.getByText(couponMessages.percentAtMost100)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('sends the amount in cents and the code in capitals, then offers Done and Create Another Coupon', async () => {
    const calls = fakeApi({
      'GET /api/admin/coupons/options': options,
      'POST /api/admin/coupons': () => ({ body: { message: 'Coupon created' } }),
    });
    const onDone = vi.fn();
    renderWithApp(<CouponForm onDone={onDone} />);
    fireEvent.click(await screen.findByLabelText('PK1 ISP Proxies'));
    type('Coupon code', 'spring-25');
    type('Name', 'Spring sale');
    fireEvent.click(screen.getByLabelText('Amount off'));
    type('Amount off (US dollars)', '12.5');
    type('Max redemptions', '40');
    submit();

    expect(await screen.findByText(couponMessages.created)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/admin/coupons',
        body: {
          code: 'SPRING-25',
          name: 'Spring sale',
          duration: 'once',
          discountType: 'amount_off',
          appliesToProducts: ['pk1_isp_proxies'],
          durationInMonths: null,
          maxRedemptions: 40,
          amountOff: 1250,
        },
      },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Create Another Coupon' }));
    expect((screen.getByRole('textbox', { name: 'Coupon code' }) as HTMLInputElement).value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Create Coupon' }));
    expect(await screen.findByText(couponMessages.codeRequired)).toBeTruthy();
  });

  it('asks for the months of a repeating coupon', async () => {
    fakeApi({ 'GET /api/admin/coupons/options': options });
    renderWithApp(<CouponForm onDone={() => {}} />);
    await screen.findByLabelText('Elite ISP Proxies');
    fireEvent.click(screen.getByRole('combobox', { name: 'Duration' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Repeating', hidden: true }));
    await screen.findByLabelText('Duration in months');
    submit();
    expect(await screen.findByText(couponMessages.monthsRequired)).toBeTruthy();
  });

  it("shows the server's refusal in the form", async () => {
    fakeApi({
      'GET /api/admin/coupons/options': options,
      'POST /api/admin/coupons': () => ({ status: 409, body: { message: couponMessages.codeTaken } }),
    });
    renderWithApp(<CouponForm onDone={() => {}} />);
    fireEvent.click(await screen.findByLabelText('Elite ISP Proxies'));
    type('Coupon code', 'LAUNCH');
    type('Name', 'Launch');
    type('Percent off', '20');
    submit();
    await waitFor(() => expect(screen.getByText(couponMessages.codeTaken)).toBeTruthy());
    expect(screen.queryByText(couponMessages.created)).toBeNull();
  });

  it("does not offer 'Forever' for a fixed amount: chosen before, it falls back to once", async () => {
    fakeApi({ 'GET /api/admin/coupons/options': options });
    renderWithApp(<CouponForm onDone={() => {}} />);
    await screen.findByLabelText('Elite ISP Proxies');
    const duration = screen.getByRole('combobox', { name: 'Duration' }) as HTMLInputElement;
    fireEvent.click(duration);
    fireEvent.click(await screen.findByRole('option', { name: 'Forever', hidden: true }));
    await waitFor(() => expect(duration.value).toBe('Forever'));

    fireEvent.click(screen.getByLabelText('Amount off'));
    await waitFor(() => expect(duration.value).toBe('Once'));
    fireEvent.click(duration);
    await screen.findByRole('option', { name: 'Repeating', hidden: true });
    expect(screen.queryByRole('option', { name: 'Forever', hidden: true })).toBeNull();
  });
});
