// @vitest-environment happy-dom
import type { Order, ReplacementHistory } from '@storefront/contract';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ReplaceDialog } from './replace-dialog.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const order: Order = {
  id: '0f8e2c1a-1111-4222-8333-4444deadbeef',
  product_id: 'isp_proxies',
  purchase_time: new Date().toISOString(),
  expiration_time: new Date(Date.now() + 20 * 86_400_000).toISOString(),
  proxies: ['192.0.2.1:8000:u:p', '192.0.2.2:8000:u:p', '192.0.2.3:8000:u:p'],
  processing: false,
  cancelled: false,
  payment_failed: false,
  expired: false,
};
const allowance = { percent: 10, limit: 2, used: 0, left: 2, periodEnd: order.expiration_time };
const history: ReplacementHistory = { allowance, replacements: [], next: null, waitingIps: [] };

describe('ReplaceDialog', () => {
  it('picks IPs within the allowance, previews, and replaces with the reason chosen', async () => {
    const calls = fakeApi({
      [`GET /api/orders/${order.id}/replacements`]: () => ({ body: history }),
      [`POST /api/orders/${order.id}/replacements/preview`]: () => ({
        body: {
          count: 2,
          allowance,
          leftAfter: 0,
          atOnce: 2,
          waiting: 0,
          withinAllowance: true,
          message: 'Replacing 2 IPs uses 2 of your 2 replacements left this billing period (0 left after).',
        },
      }),
      [`POST /api/orders/${order.id}/replacements`]: () => ({
        body: {
          message: '2 IPs replaced: the new lines are in your list.',
          replaced: [
            { oldIp: '192.0.2.1:8000', newIp: '198.51.100.1:9000' },
            { oldIp: '192.0.2.2:8000', newIp: '198.51.100.2:9000' },
          ],
          waiting: [],
          allowance: { ...allowance, used: 2, left: 0 },
        },
      }),
    });
    const closed = vi.fn();
    renderWithApp(<ReplaceDialog opened order={order} onClose={closed} />);
    expect(await screen.findByText(/2 of 2 replacements left this billing period/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'slow' } });
    fireEvent.click(screen.getByLabelText('192.0.2.1:8000'));
    fireEvent.click(screen.getByLabelText('192.0.2.2:8000'));
    // The allowance is reached: the third cannot be picked.
    expect((screen.getByLabelText('192.0.2.3:8000') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Review replacement' }));
    expect(await screen.findByText(/uses 2 of your 2 replacements left/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Replace 2 IPs' }));
    const toast = (await screen.findByText('IPs replaced')).closest('[role="alert"]') as HTMLElement;
    expect(within(toast).getByText('2 IPs replaced: the new lines are in your list.')).toBeTruthy();
    expect(closed).toHaveBeenCalled();
    const sent = calls.find((call) => call.method === 'POST' && call.path.endsWith('/replacements'));
    expect(sent?.body).toEqual({ ips: ['192.0.2.1:8000', '192.0.2.2:8000'], reason: 'slow' });
  });
});
