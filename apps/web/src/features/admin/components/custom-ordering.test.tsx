// @vitest-environment happy-dom
import { customOrderMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { CustomOrdering } from './custom-ordering.tsx';

const users: Record<string, { id: string; email: string; createdAt: string }> = {
  'ann@example.com': { id: 'user-ann', email: 'ann@example.com', createdAt: '2026-11-01T00:00:00Z' },
  'bob@example.com': { id: 'user-bob', email: 'bob@example.com', createdAt: '2026-11-02T00:00:00Z' },
  'anna@example.com': { id: 'user-anna', email: 'anna@example.com', createdAt: '2026-11-03T00:00:00Z' },
};

// The server's search, as far as these tests need it: the e-mails that start with the search.
const search = {
  'GET /api/admin/users/search': ({ url }: { url: URL }) => {
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const matches = Object.values(users)
      .filter((user) => user.email.startsWith(q))
      .map((user) => ({ ...user, name: user.email.split('@')[0] }));
    return { body: { matches, more: false } };
  },
};

beforeEach(() => {
  fakeApi({
    ...search,
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
  it('lets the administrator choose among several customers, and says so when none matches', async () => {
    renderWithApp(<CustomOrdering />);
    fireEvent.change(screen.getByLabelText('Customer e-mail'), { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(customOrderMessages.userNotFoundToast)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Customer e-mail'), { target: { value: 'ANN' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const choices = await screen.findByRole('list', { name: '2 customers match' });
    expect(within(choices).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.click(within(choices).getByRole('button', { name: 'Choose anna@example.com' }));
    await screen.findByText('anna@example.com', { selector: 'p' });
    expect(screen.getByText('user-anna')).toBeTruthy();
    expect(screen.queryByRole('list', { name: '2 customers match' })).toBeNull();
  });

  it('Clear All clears everything: the customer, the form and the payment link made for them', async () => {
    renderWithApp(<CustomOrdering />);
    fireEvent.click(screen.getByRole('button', { name: 'Create Custom Order' }));
    await searchFor('ann@example.com');
    fireEvent.change(await screen.findByLabelText('Coupon (optional)'), { target: { value: 'VIP' } });
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

  it('asks for an e-mail before searching, until the next search', async () => {
    renderWithApp(<CustomOrdering />);
    fireEvent.change(screen.getByLabelText('Customer e-mail'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(customOrderMessages.enterEmail)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Customer e-mail'), { target: { value: ' ann@example.com ' } });
    expect(screen.getByText(customOrderMessages.enterEmail)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('ann@example.com', { selector: 'p' });
    expect(screen.queryByText(customOrderMessages.enterEmail)).toBeNull();
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

  it('holds the quantity to 1 to 1000, then sends the customer, the quantity and the coupon trimmed', async () => {
    const calls = fakeApi({
      ...search,
      'GET /api/admin/users': () => ({ body: { user: users['ann@example.com'], customOrders: [] } }),
      'POST /api/admin/checkout/pk1/custom': () => ({ body: { checkoutUrl: 'https://pay.example/ann' } }),
    });
    renderWithApp(<CustomOrdering />);
    fireEvent.click(screen.getByRole('button', { name: 'Create Custom Order' }));
    await searchFor('ann@example.com');
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity (IPs)' }), { target: { value: '1001' } });
    await createLink();
    expect(await screen.findByText(customOrderMessages.quantityRange)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity (IPs)' }), { target: { value: '40' } });
    fireEvent.change(screen.getByLabelText('Coupon (optional)'), { target: { value: '  VIP ' } });
    await createLink();
    expect(await screen.findByText('https://pay.example/ann')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/admin/checkout/pk1/custom',
        body: { userId: 'user-ann', quantity: 40, coupon: 'VIP' },
      },
    ]);
  });

  it('fulfils a paid order with exactly its quantity of proxies, and says so when the count is wrong', async () => {
    let status: 'paid' | 'fulfilled' = 'paid';
    const calls = fakeApi({
      ...search,
      'GET /api/admin/users': () => ({
        body: {
          user: users['ann@example.com'],
          customOrders: [
            {
              orderId: 'order-0001-abcd',
              productId: 'pk1_isp_proxies',
              quantity: 2,
              status,
              isPaid: true,
              checkoutLink: null,
              createdAt: '2026-11-20T10:00:00Z',
            },
          ],
        },
      }),
      'POST /api/admin/orders/fulfill': () => {
        status = 'fulfilled';
        return { body: { customOrders: [] } };
      },
    });
    renderWithApp(<CustomOrdering />);
    await searchFor('ann@example.com');
    fireEvent.click(await screen.findByRole('button', { name: 'Fulfill' }));
    const proxies = await screen.findByRole('textbox', { name: 'Proxies' });
    fireEvent.change(proxies, { target: { value: '198.51.100.1:8000:u:p' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Fulfill' }));
    expect(await screen.findByText(customOrderMessages.quantityMismatch(2, 1))).toBeTruthy();

    fireEvent.change(proxies, { target: { value: '198.51.100.1:8000:u:p\n\n198.51.100.2:8000' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Fulfill' }));
    expect(await screen.findByText('2 proxies delivered to the customer.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/admin/orders/fulfill',
        body: { userId: 'user-ann', orderId: 'order-0001-abcd', ips: ['198.51.100.1:8000:u:p', '198.51.100.2:8000'] },
      },
    ]);
    // The customer is looked up again: the order shows as fulfilled.
    expect(await screen.findByText('fulfilled')).toBeTruthy();
  });
});
