// @vitest-environment happy-dom
import { checkoutMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { CHECKOUT_NOTICE_MS, PurchasePage } from './purchase-page.tsx';

beforeEach(() => {
  fakeApi({
    'GET /api/pricing': () => ({
      body: {
        success: true,
        message: '',
        plans: [
          { id: 'isp_proxies', name: 'isp_proxies', price: 2.5, stock: 1000 },
          { id: 'pk1_isp_proxies', name: 'pk1_isp_proxies', price: 2.5, stock: 1000 },
          { id: 'residential_proxies', name: 'residential_proxies', price: 5, stock: 100000 },
        ],
      },
    }),
    'GET /api/features': () => ({ body: [] }),
    'POST /api/checkout': () => ({
      body: { success: true, checkoutUrl: 'http://localhost:3000/sandbox/checkout/cs_1' },
    }),
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** What the Order Summary says the quantity is, and its total. */
const summary = () => {
  const card = within(screen.getByRole('region', { name: 'Order Summary' }));
  return {
    quantity: card.getByText('Quantity').nextElementSibling?.textContent,
    total: card.getByTestId('order-total').textContent,
  };
};

describe('Purchase: the custom amount', () => {
  it('the field and the Order Summary always say the same amount', async () => {
    renderWithApp(<PurchasePage />);
    fireEvent.click(await screen.findByRole('button', { name: /Residential Proxies/ }));
    fireEvent.click(screen.getByRole('button', { name: /^Custom/ }));
    const field = screen.getByRole('textbox', { name: /Custom amount/ }) as HTMLInputElement;
    expect(field.value).toBe('1');
    expect(summary()).toEqual({ quantity: '1 GB', total: '$5' });

    fireEvent.change(field, { target: { value: '25' } });
    expect(field.value).toBe('25');
    expect(summary()).toEqual({ quantity: '25 GB', total: '$125' });

    // Below the minimum: the summary never uses an amount the field does not show (it used 1 beside a 0); once the
    // field is left, both say 1.
    fireEvent.change(field, { target: { value: '0' } });
    expect(field.value).toBe('0');
    expect(summary()).toEqual({ quantity: 'Not selected', total: '—' });
    fireEvent.blur(field);
    expect(field.value).toBe('1');
    expect(summary()).toEqual({ quantity: '1 GB', total: '$5' });

    // Emptied: no amount on either side; on leaving the field it becomes 1, as a value that is not a number does.
    fireEvent.change(field, { target: { value: '' } });
    expect(field.value).toBe('');
    expect(summary()).toEqual({ quantity: 'Not selected', total: '—' });
    fireEvent.blur(field);
    expect(field.value).toBe('1');
    expect(summary()).toEqual({ quantity: '1 GB', total: '$5' });

    // Above the maximum: 10,000 on both sides once the field is left.
    fireEvent.change(field, { target: { value: '20000' } });
    expect(summary()).toEqual({ quantity: 'Not selected', total: '—' });
    fireEvent.blur(field);
    expect(field.value).toBe('10000');
    expect(summary()).toEqual({ quantity: '10,000 GB', total: '$50,000' });
  });
});

describe('Purchase: Checkout', () => {
  it("shows 'Checkout Started' long enough to read before the payment page opens, and starts no second checkout", async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    renderWithApp(<PurchasePage />);
    fireEvent.click(await screen.findByRole('button', { name: /Elite ISP Proxies/ }));
    fireEvent.click(screen.getByRole('button', { name: /^5 IPs/ }));
    const checkout = screen.getByRole('button', { name: 'Checkout' });
    // Timed from the press, which comes before the toast: the moment the toast is found may be later than it showed.
    const pressedAt = Date.now();
    fireEvent.click(checkout);
    expect(await screen.findByText('Checkout Started')).toBeTruthy();
    fireEvent.click(checkout);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/sandbox/checkout/cs_1'), {
      timeout: CHECKOUT_NOTICE_MS + 2000,
    });
    expect(Date.now() - pressedAt).toBeGreaterThanOrEqual(CHECKOUT_NOTICE_MS);
    expect(assign).toHaveBeenCalledTimes(1);
    const checkouts = (fetch as unknown as { mock: { calls: [string, RequestInit?][] } }).mock.calls.filter(
      ([url, init]) => String(url).endsWith('/api/checkout') && init?.method === 'POST',
    );
    expect(checkouts).toHaveLength(1);
  });
});

describe('Purchase: the checkout form', () => {
  const checkoutsSent = () =>
    (fetch as unknown as { mock: { calls: [string, RequestInit?][] } }).mock.calls
      .filter(([url, init]) => String(url).endsWith('/api/checkout') && init?.method === 'POST')
      .map(([, init]) => JSON.parse(String(init?.body)));
  const refuse = (message: string) =>
    fakeApi({
      'GET /api/pricing': () => ({
        body: {
          success: true,
          message: '',
          plans: [{ id: 'isp_proxies', name: 'isp_proxies', price: 2.5, stock: 1000 }],
        },
      }),
      'GET /api/features': () => ({ body: [] }),
      'POST /api/checkout': () => ({ body: { success: false, error: { message } } }),
    });

  it("says 'Selection Required' without a type and bundle, and sends nothing", async () => {
    renderWithApp(<PurchasePage />);
    await screen.findByRole('button', { name: /Elite ISP Proxies/ });
    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(await screen.findByText('Selection Required')).toBeTruthy();
    expect(screen.getByText('Please select a proxy type and bundle before checkout.')).toBeTruthy();

    // A type without a bundle is not enough either (the press is handled at once: nothing is sent).
    fireEvent.click(screen.getByRole('button', { name: /Elite ISP Proxies/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(checkoutsSent()).toEqual([]);
  });

  it("sends the coupon code trimmed, or none when left blank, and shows the shop's refusal", async () => {
    refuse('This coupon has expired.');
    renderWithApp(<PurchasePage />);
    fireEvent.click(await screen.findByRole('button', { name: /Elite ISP Proxies/ }));
    fireEvent.click(screen.getByRole('button', { name: /^5 IPs/ }));
    fireEvent.change(screen.getByRole('textbox', { name: /Coupon code/ }), { target: { value: '  SPRING  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(await screen.findByText('This coupon has expired.')).toBeTruthy();
    expect(screen.getByText(checkoutMessages.checkoutError)).toBeTruthy();
    expect(checkoutsSent()).toEqual([{ productId: 'isp_proxies', quantity: 5, coupon: 'SPRING' }]);

    fireEvent.change(screen.getByRole('textbox', { name: /Coupon code/ }), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    await waitFor(() => expect(checkoutsSent()).toHaveLength(2));
    expect(checkoutsSent()[1]).toEqual({ productId: 'isp_proxies', quantity: 5 });
  });
});
