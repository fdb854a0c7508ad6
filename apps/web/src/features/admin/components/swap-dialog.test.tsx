// @vitest-environment happy-dom
import { adminMessages, inventoryMessages, type Subnet } from '@storefront/contract';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { SwapDialog } from './swap-dialog.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const subnet: Subnet = {
  subnet: '198.18.5.0/24',
  totalIps: 2,
  assignedIps: 1,
  unassignedIps: 1,
  burntIps: 1,
  ips: [],
};

// The dialog's Modal loads when it first opens (components/lazy-dialog.tsx): its field is waited for.
describe('SwapDialog', () => {
  it("says 'IPs Swapped Successfully' once: the toast's line tells what was swapped, not the title again", async () => {
    fakeApi({
      'POST /api/admin/ips/pk1/subnets/swap': () => ({
        body: {
          message: `${adminMessages.swapped}: 2 IPs of 198.18.5.0/24 have new endpoints; 1 waiting order delivered.`,
          swapped: 2,
          delivered: 1,
        },
      }),
    });
    renderWithApp(<SwapDialog pool="pk1" subnet={subnet} onClose={() => {}} />);
    fireEvent.change(await screen.findByLabelText('New endpoints', {}, { timeout: 5000 }), {
      target: { value: '198.18.9.1:9001:a:b\n198.18.9.2:9001:c:d' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Swap IPs' }));
    const toast = (await screen.findByText(adminMessages.swapped)).closest('[role="alert"]') as HTMLElement;
    expect(toast).toBeTruthy();
    expect(toast.textContent?.split(adminMessages.swapped)).toHaveLength(2);
    expect(
      within(toast).getByText('2 IPs of 198.18.5.0/24 have new endpoints; 1 waiting order delivered.'),
    ).toBeTruthy();
  });

  it('names a bad line by the number the administrator sees, blank lines counted, and sends nothing', async () => {
    const calls = fakeApi({});
    renderWithApp(<SwapDialog pool="pk1" subnet={subnet} onClose={() => {}} />);
    fireEvent.change(await screen.findByLabelText('New endpoints', {}, { timeout: 5000 }), {
      target: { value: '198.18.9.1:9001:a:b\n\nnot an endpoint' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Swap IPs' }));
    expect(await screen.findByText(inventoryMessages.invalidLines([3]))).toBeTruthy();
    fireEvent.change(await screen.findByLabelText('New endpoints', {}, { timeout: 5000 }), {
      target: { value: '198.18.9.1:9001:a:b' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Swap IPs' }));
    expect(await screen.findByText(adminMessages.swapCountMismatch(1, 2))).toBeTruthy();
    expect(calls).toEqual([]);
  });
});
