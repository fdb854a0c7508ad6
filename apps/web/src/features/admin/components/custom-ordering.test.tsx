// @vitest-environment happy-dom
import { customOrderMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { CustomOrdering } from './custom-ordering.tsx';

const users: Record<string, { id: string; email: string; createdAt: string }> = {
  'ann@example.com': { id: 'user-ann', email: 'ann@example.com', createdAt: '2026-11-01T00:00:00Z' },
  'bob@example.com': { id: 'user-bob', email: 'bob@example.com', createdAt: '2026-11-02T00:00:00Z' },
};

beforeEach(() => {
  fakeApi({
    'GET /api/admin/users': ({ url }) => {
      const user = users[url.searchParams.get('email') ?? ''];
      return user
        ? { body: { user, customOrders: [] } }
        : { status: 404, body: { message: customOrderMessages.userNotFound } };
    },
    'POST /api/admin/checkout/pk1/custom': ({ body }) => ({
      body: { checkoutUrl: `https://pay.example/${(body as { userId: string }).userId}` },
    }),
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const searchFor = async (email: string) => {
  fireEvent.change(screen.getByLabelText('Customer e-mail'), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  await screen.findByText(email, { selector: 'p' });
};
const createLink = async () => fireEvent.click(await screen.findByRole('button', { name: 'Create payment link' }));

describe('Custom Ordering', () => {
  it('Clear All clears everything: the customer, the form and the payment link made for them', async () => {
    renderWithApp(<CustomOrdering />);
    fireEvent.click(screen.getByRole('button', { name: 'Create Custom Order' }));
    await searchFor('ann@example.com');
    fireEvent.change(screen.getByLabelText('Coupon (optional)'), { target: { value: 'VIP' } });
    await createLink();
    expect(await screen.findByText('https://pay.example/user-ann')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(screen.queryByText('ann@example.com', { selector: 'p' })).toBeNull());
    expect(screen.queryByText('https://pay.example/user-ann')).toBeNull();
    expect(screen.queryByText('Payment link created')).toBeNull();
    expect((screen.getByLabelText('Customer e-mail') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Coupon (optional)') as HTMLInputElement).value).toBe('');
  });

  it("another customer's search does not keep the previous customer's payment link", async () => {
    renderWithApp(<CustomOrdering />);
    fireEvent.click(screen.getByRole('button', { name: 'Create Custom Order' }));
    await searchFor('ann@example.com');
    await createLink();
    expect(await screen.findByText('https://pay.example/user-ann')).toBeTruthy();
    await searchFor('bob@example.com');
    expect(screen.queryByText('https://pay.example/user-ann')).toBeNull();
  });

  it("drops 'Please search for a user first' once a user is found, and keeps the form open", async () => {
    renderWithApp(<CustomOrdering />);
    fireEvent.click(screen.getByRole('button', { name: 'Create Custom Order' }));
    await createLink();
    expect(screen.getByText(customOrderMessages.searchFirst)).toBeTruthy();
    await searchFor('ann@example.com');
    expect(screen.queryByText(customOrderMessages.searchFirst)).toBeNull();
    expect(screen.getByRole('button', { name: 'Create payment link' })).toBeTruthy();
  });
});
