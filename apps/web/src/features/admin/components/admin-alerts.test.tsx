// @vitest-environment happy-dom
import type { AdminAlert, AdminAlerts as AlertsAnswer } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { openAlertsQuery } from '../api/alerts-api.ts';
import { AdminAlerts } from './admin-alerts.tsx';

afterEach(() => {
  cleanup();
});

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const waiting = (n: number): AdminAlert => ({
  id: `order-${n}`,
  kind: 'order_waiting',
  summary: `Order #0000000${n} of ann@example.com (Elite ISP Proxies, ${100 + n} IPs), paid Nov 25, 2026, 10:00 AM UTC, waits for stock.`,
  openedAt: minutesAgo(30 - n),
  tab: 'inventory',
});
const answer = (alerts: AdminAlert[]): AlertsAnswer => {
  const counts = { order_waiting: 0, low_stock: 0, job_stuck: 0, outbox_failing: 0 };
  for (const alert of alerts) counts[alert.kind] += 1;
  return { alerts, total: alerts.length, counts };
};

describe('the open alerts above the admin tabs', () => {
  it('shows one box per kind with its count and first alerts, all of them on demand, and where to act', async () => {
    const jobStuck: AdminAlert = {
      id: 'job',
      kind: 'job_stuck',
      summary: 'The periodic job failed 3 times in a row: relation "orders" is locked.',
      openedAt: minutesAgo(2),
      tab: null,
    };
    fakeApi({ 'GET /api/admin/alerts': () => ({ body: answer([1, 2, 3, 4, 5].map(waiting).concat(jobStuck)) }) });
    renderWithApp(<AdminAlerts />);

    const region = await screen.findByRole('region', { name: 'Open alerts' });
    const boxes = within(region).getAllByRole('alert');
    expect(boxes.map((box) => within(box).getAllByText(/\(\d\)$/)[0]?.textContent)).toEqual([
      'Paid orders waiting (5)',
      'Periodic job stuck (1)',
    ]);
    const [orders, job] = boxes as [HTMLElement, HTMLElement];
    expect(within(orders).getAllByRole('listitem')).toHaveLength(3);
    expect(within(orders).getByText(/101 IPs/)).toBeTruthy();
    expect(within(orders).queryByText(/105 IPs/)).toBeNull();
    expect(within(orders).getByText('(opened 29 minutes ago)')).toBeTruthy();
    fireEvent.click(within(orders).getByRole('button', { name: 'Show all 5' }));
    expect(within(orders).getAllByRole('listitem')).toHaveLength(5);
    expect(within(orders).getByRole('button', { name: 'Show fewer' }).getAttribute('aria-expanded')).toBe('true');
    expect(within(orders).getByRole('link', { name: 'Go to Inventory & Features' }).getAttribute('href')).toBe(
      '/dashboard/admin',
    );
    expect(within(job).getByText(/relation "orders" is locked/)).toBeTruthy();
    expect(within(job).queryByRole('link')).toBeNull();
  });

  it('says when more are open than listed, and links a custom order to Custom Ordering', async () => {
    const custom: AdminAlert = {
      ...waiting(1),
      summary: 'Custom order #00000001 … waits to be fulfilled.',
      tab: 'custom_ordering',
    };
    const listed = [custom, waiting(2), waiting(3), waiting(4)];
    fakeApi({
      'GET /api/admin/alerts': () => ({
        body: { ...answer(listed), total: 60, counts: { ...answer(listed).counts, order_waiting: 60 } },
      }),
    });
    renderWithApp(<AdminAlerts />);
    const box = await screen.findByRole('alert');
    expect(within(box).getByText('Paid orders waiting (60)')).toBeTruthy();
    fireEvent.click(within(box).getByRole('button', { name: 'Show 4 of 60' }));
    expect(within(box).getByText('56 more are open; the oldest 4 are listed.')).toBeTruthy();
    expect(within(box).getByRole('link', { name: 'Go to Custom Ordering' }).getAttribute('href')).toBe(
      '/dashboard/admin?tab=custom_ordering',
    );
    expect(within(box).getByRole('link', { name: 'Go to Inventory & Features' })).toBeTruthy();
  });

  it('shows nothing when nothing is open, and goes away once the alerts resolve', async () => {
    let open = [waiting(1)];
    fakeApi({ 'GET /api/admin/alerts': () => ({ body: answer(open) }) });
    const { queryClient } = renderWithApp(<AdminAlerts />);
    expect(await screen.findByRole('region', { name: 'Open alerts' })).toBeTruthy();
    open = [];
    await queryClient.invalidateQueries({ queryKey: openAlertsQuery.queryKey });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Open alerts' })).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('on a phone shows each kind and its count, its alerts on demand, so the tabs stay on the first screen', async () => {
    // Chosen by CSS (below Mantine's sm), as a page the server drew at any width shows it.
    const viewport = (window as unknown as { happyDOM: { setViewport(size: { width: number }): void } }).happyDOM;
    viewport.setViewport({ width: 375 });
    try {
      fakeApi({ 'GET /api/admin/alerts': () => ({ body: answer([waiting(1), waiting(2)]) }) });
      renderWithApp(<AdminAlerts />);
      const box = await screen.findByRole('alert');
      expect(within(box).queryAllByRole('listitem')).toHaveLength(0);
      expect(within(box).getByText('Paid orders waiting (2)')).toBeTruthy();
      fireEvent.click(within(box).getByRole('button', { name: 'Show all 2' }));
      expect(within(box).getAllByRole('listitem')).toHaveLength(2);
      expect(within(box).getByRole('button', { name: 'Hide' })).toBeTruthy();
    } finally {
      viewport.setViewport({ width: 1024 });
    }
  });

  it('on a wide screen lists up to three at once and offers no button for them', async () => {
    fakeApi({ 'GET /api/admin/alerts': () => ({ body: answer([waiting(1), waiting(2)]) }) });
    renderWithApp(<AdminAlerts />);
    const box = await screen.findByRole('alert');
    expect(within(box).getAllByRole('listitem')).toHaveLength(2);
    expect(within(box).queryByRole('button')).toBeNull();
  });

  it('says so when the alerts cannot be read, without hiding the page', async () => {
    fakeApi({ 'GET /api/admin/alerts': () => ({ status: 500, body: {} }) });
    renderWithApp(<AdminAlerts />);
    expect(await screen.findByText('The open alerts could not be loaded.')).toBeTruthy();
  });
});
