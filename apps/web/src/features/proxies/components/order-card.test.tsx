// @vitest-environment happy-dom
import type { Order } from '@storefront/contract';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { OrderCard } from './order-card.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const DAY = 86_400_000;
const order = (patch: Partial<Order>): Order => ({
  id: '0f8e2c1a-1111-4222-8333-4444deadbeef',
  product_id: 'isp_proxies',
  purchase_time: new Date(Date.now() - 20 * DAY).toISOString(),
  expiration_time: new Date(Date.now() + 10 * DAY).toISOString(),
  proxies: ['192.0.2.1:8000:user:pass'],
  processing: false,
  cancelled: false,
  payment_failed: false,
  expired: false,
  ...patch,
});
const card = (value: Order) => {
  renderWithApp(<OrderCard order={value} format="ip:port:user:pass" onCancel={() => {}} onReplace={() => {}} />);
  return within(screen.getByTestId('order-card'));
};
const endedOn = (iso: string) =>
  `Ended ${new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))}`;

describe('OrderCard', () => {
  it('shows an order the server ended as Expired with the end of its paid period, even when that lies ahead', () => {
    // The sandbox's clock was moved past the period's end: the job ended the order at a business date.
    const periodEnd = new Date(Date.now() + 10 * DAY).toISOString();
    const view = card(order({ expired: true, expiration_time: periodEnd, proxies: [] }));
    expect(view.getByText('Expired')).toBeTruthy();
    expect(view.queryByText('Active')).toBeNull();
    expect(view.getByText(endedOn(periodEnd))).toBeTruthy();
    expect(view.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(view.queryByRole('button', { name: 'Replace IPs' })).toBeNull();
  });

  it('drops what no longer holds once an order has ended: the end-of-cycle promise and an empty proxy list', () => {
    const view = card(
      order({ expired: true, cancelled: true, proxies: [], expiration_time: new Date(Date.now() - DAY).toISOString() }),
    );
    expect(view.getByText('Expired')).toBeTruthy();
    expect(view.queryByText('Terminate at end of billing cycle')).toBeNull();
    expect(view.queryByRole('button', { name: 'Show proxies' })).toBeNull();
    expect(view.getByText(/0 proxies/)).toBeTruthy();
  });

  it('keeps the end-of-cycle badge on a cancelled order that still runs', () => {
    const view = card(order({ cancelled: true }));
    expect(view.getByText('Terminate at end of billing cycle')).toBeTruthy();
    expect(view.getByRole('button', { name: 'Show proxies' })).toBeTruthy();
    expect(view.getByText(/^Ends /)).toBeTruthy();
  });

  it('shows a live order as Active with its renewal date and the cancel action', () => {
    const view = card(order({}));
    expect(view.getByText('Active')).toBeTruthy();
    expect(view.getByText(/^Renews /)).toBeTruthy();
    expect(view.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(view.getByRole('button', { name: 'Replace IPs' })).toBeTruthy();
  });

  it('opens its list on Show proxies (rendered in a transition) and closes it on Hide proxies', async () => {
    fakeApi({
      'GET /api/orders/0f8e2c1a-1111-4222-8333-4444deadbeef/replacements': () => ({
        body: {
          allowance: { percent: 10, limit: 1, used: 0, left: 1, periodEnd: null },
          replacements: [],
          next: null,
          waitingIps: [],
        },
      }),
    });
    const view = card(order({ proxies: ['192.0.2.1:8000:user:pass', '192.0.2.2:8000:user:pass'] }));
    fireEvent.click(view.getByRole('button', { name: 'Show proxies' }));
    const hide = await view.findByRole('button', { name: 'Hide proxies' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    expect(view.getByRole('table').textContent).toContain('192.0.2.2:8000:user:pass');
    expect(await view.findByText('No replacements yet.')).toBeTruthy();
    fireEvent.click(hide);
    expect(await view.findByRole('button', { name: 'Show proxies' })).toBeTruthy();
    expect(view.queryByRole('table')).toBeNull();
  });
});
