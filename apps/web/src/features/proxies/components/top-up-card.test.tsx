// @vitest-environment happy-dom
import { type TopUp, type TopUpEntry, topUpMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { TopUpCard } from './top-up-card.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const entry = (patch: Partial<TopUpEntry>): TopUpEntry => ({
  id: crypto.randomUUID(),
  startedAt: '2026-11-20T10:00:00.000Z',
  amountGb: 10,
  amountCents: 3500,
  currency: 'usd',
  status: 'paid',
  message: null,
  orderId: null,
  ...patch,
});

const topUp = (patch: Partial<TopUp> = {}): TopUp => ({
  enabled: false,
  thresholdGb: 5,
  amountGb: 10,
  monthlyCapDollars: 200,
  maxPerDay: 3,
  card: null,
  unitPriceCents: 350,
  currency: 'usd',
  spentThisMonthCents: 3500,
  topUpsLastDay: 0,
  failuresInARow: 0,
  switchedOffAt: null,
  waiting: null,
  history: [],
  ...patch,
});

const withCard = { label: 'Visa •••• 4242', savedAt: '2026-11-20T09:00:00.000Z' };

function show(answer: TopUp, put?: (body: unknown) => { status?: number; body: unknown }) {
  const calls = fakeApi({
    'GET /api/residential/top-up': () => ({ body: answer }),
    ...(put && { 'PUT /api/residential/top-up': ({ body }) => put(body) }),
  });
  renderWithApp(<TopUpCard />);
  return calls;
}

describe('TopUpCard', () => {
  it('says what one top-up costs, as the amount is typed, and what this month has spent', async () => {
    show(topUp());
    const cost = await screen.findByTestId('top-up-cost');
    expect(cost.textContent).toBe('One top-up: 10 GB for $35.00 ($3.50 a GB; coupons do not apply).');
    expect(screen.getByTestId('top-up-spent').textContent).toBe('Spent this month: $35.00 of $200.00');
    fireEvent.change(screen.getByLabelText('Buy (GB)'), { target: { value: '20' } });
    expect(screen.getByTestId('top-up-cost').textContent).toContain('20 GB for $70.00');
  });

  it('says a card is needed as the switch is turned on without one, and sends nothing', async () => {
    const calls = show(topUp());
    expect(await screen.findByText('No card saved')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save a card' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('switch'));
    expect(screen.getByText(topUpMessages.needCard)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('saves the five settings with a card, and says the server refusal beside the form', async () => {
    let refuse = false;
    const calls = show(topUp({ card: withCard }), (body) =>
      refuse
        ? { status: 400, body: { message: 'The threshold is a whole number of GB from 1 to 10,000.' } }
        : { body: { ...topUp({ card: withCard }), ...(body as object) } },
    );
    expect(await screen.findByText('Card: Visa •••• 4242')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Replace card' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove card' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('switch'));
    fireEvent.change(screen.getByLabelText('When data left falls under (GB)'), { target: { value: '8' } });
    fireEvent.change(screen.getByLabelText('Top-ups a day at most'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const toast = (await screen.findByText(topUpMessages.saved)).closest('[role="alert"]');
    expect(toast).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      enabled: true,
      thresholdGb: 8,
      amountGb: 10,
      monthlyCapDollars: 200,
      maxPerDay: 2,
    });
    expect(await screen.findByText('On')).toBeTruthy();

    refuse = true;
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The threshold is a whole number of GB from 1 to 10,000.')).toBeTruthy();
  });

  it('removes the card once asked to confirm, and shows top-up off without it', async () => {
    const calls = fakeApi({
      'GET /api/residential/top-up': () => ({ body: topUp({ enabled: true, card: withCard }) }),
      'DELETE /api/residential/top-up/card': () => ({ body: topUp() }),
    });
    renderWithApp(<TopUpCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the card?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove card' }));
    expect(await screen.findByText(topUpMessages.cardRemoved)).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
    expect(await screen.findByText('No card saved')).toBeTruthy();
    expect(screen.getByText('Off')).toBeTruthy();
    expect((screen.getByRole('switch') as HTMLInputElement).checked).toBe(false);
  });

  it('lists the latest top-ups with their status in words and a link to the paid one in Order History', async () => {
    show(
      topUp({
        card: withCard,
        history: [
          entry({ status: 'charging' }),
          entry({ status: 'needs_action', message: topUpMessages.needsAction }),
          entry({ status: 'failed', message: topUpMessages.declined }),
          entry({ status: 'paid', orderId: '0f8e2c1a-1111-4222-8333-4444deadbeef' }),
        ],
      }),
    );
    const rows = await screen.findAllByTestId('top-up-entry');
    expect(rows.map((row) => within(row).getAllByRole('cell')[3]?.textContent)).toEqual([
      'Charging',
      'Needs your confirmation',
      'Failed',
      'Paid',
    ]);
    expect(within(rows[1] as HTMLElement).getByText(topUpMessages.needsAction)).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText(topUpMessages.declined)).toBeTruthy();
    const link = within(rows[3] as HTMLElement).getByRole('link', { name: 'Order #DEADBEEF in Order History' });
    expect(link.getAttribute('href')).toBe('/dashboard/order-history');
    expect(within(rows[0] as HTMLElement).getByText('10 GB')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('$35.00')).toBeTruthy();
  });

  it('says there are none yet, why it waits, and that it switched itself off', async () => {
    show(topUp({ switchedOffAt: '2026-11-21T10:00:00.000Z', failuresInARow: 3, card: withCard }));
    expect(await screen.findByText('No top-ups yet.')).toBeTruthy();
    expect(screen.getByText(topUpMessages.switchedOff)).toBeTruthy();
    cleanup();
    vi.unstubAllGlobals();
    show(topUp({ enabled: true, card: withCard, waiting: topUpMessages.monthlyCapReached }));
    expect(await screen.findByText(topUpMessages.monthlyCapReached)).toBeTruthy();
    expect(screen.queryByText(topUpMessages.switchedOff)).toBeNull();
  });
});
