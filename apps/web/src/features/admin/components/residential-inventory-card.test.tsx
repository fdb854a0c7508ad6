// @vitest-environment happy-dom
import type { ResidentialStock } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ResidentialInventoryCard } from './residential-inventory-card.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const stock = (bandwidthLimit: number): ResidentialStock => ({
  bandwidthUsed: 1000,
  bandwidthLimit,
  bandwidthAvailable: bandwidthLimit - 1000,
  usagePercentage: (100 * 1000) / bandwidthLimit,
  bandwidthCarried: 0,
  topUpsThisMonth: { paid: 2, paidCents: 5000, failed: 1, currency: 'usd' },
});
const poolField = () => screen.getByRole('textbox', { name: /Set the pool/ }) as HTMLInputElement;

describe('Residential inventory: Set pool', () => {
  it('sends the pool in MB from the GB typed, says what the server did, and shows the new limit', async () => {
    let limit = 2000;
    const calls = fakeApi({
      'GET /api/admin/stocks/residential': () => ({ body: stock(limit) }),
      'GET /api/admin/stocks/residential/daily': () => ({ body: { days: [] } }),
      'GET /api/admin/stocks/residential/top-customers': () => ({
        body: { month: '2026-11', customers: [{ userId: 'u1', email: 'heavy@example.com', usedInKb: 3_584_000 }] },
      }),
      'PUT /api/admin/stocks/residential': ({ body }) => {
        limit = (body as { bandwidthLimit: number }).bandwidthLimit;
        return { body: { ...stock(limit), message: 'The pool is 2.5 GB; no order was waiting.', delivered: 0 } };
      },
    });
    renderWithApp(<ResidentialInventoryCard />);
    expect(await screen.findByText('2.000 GB')).toBeTruthy();
    expect(screen.getByText('Automatic top-ups this month: 2 paid ($50.00), 1 failed')).toBeTruthy();
    expect(await screen.findByText('heavy@example.com')).toBeTruthy();
    expect(screen.getByText('3.500 GB')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Set pool' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(poolField(), { target: { value: '2.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set pool' }));

    expect(await screen.findByText('The pool is 2.5 GB; no order was waiting.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([
      { method: 'PUT', path: '/api/admin/stocks/residential', body: { bandwidthLimit: 2500 } },
    ]);
    expect(poolField().value).toBe('');
    await waitFor(() => expect(screen.getByText('2.500 GB')).toBeTruthy());
  });

  it("shows the server's refusal under the field", async () => {
    fakeApi({
      'GET /api/admin/stocks/residential': () => ({ body: stock(2000) }),
      'GET /api/admin/stocks/residential/daily': () => ({ body: { days: [] } }),
      'PUT /api/admin/stocks/residential': () => ({
        status: 400,
        body: { message: 'The pool cannot be smaller than what is sold (1 GB).' },
      }),
    });
    renderWithApp(<ResidentialInventoryCard />);
    await screen.findByText('2.000 GB');
    fireEvent.change(poolField(), { target: { value: '0.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set pool' }));
    expect(await screen.findByText('The pool cannot be smaller than what is sold (1 GB).')).toBeTruthy();
    expect(poolField().value).toBe('0.5');
  });
});
