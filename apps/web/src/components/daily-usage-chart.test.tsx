// @vitest-environment happy-dom
import { KB_PER_GB } from '@storefront/contract';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { DailyUsageChart } from './daily-usage-chart.tsx';

afterEach(cleanup);

/** 30 days from 2026-10-29 to 2026-11-27, `kb(index)` each. */
const month = (kb: (index: number) => number) =>
  Array.from({ length: 30 }, (_, index) => ({
    day: new Date(Date.UTC(2026, 9, 29 + index)).toISOString().slice(0, 10),
    usedInKb: kb(index),
  }));

const barsOf = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('[class*="slot"]')];
/** The drawn chart (hidden from screen readers, which get the table). */
const chartOf = (container: HTMLElement) =>
  within(container.querySelector<HTMLElement>('[class*="chart"]') as HTMLElement);
const heightOf = (slot: HTMLElement) => (slot.firstElementChild as HTMLElement).style.height;

describe('DailyUsageChart', () => {
  it('draws a bar a day against round figures, and gives the same figures as a table', () => {
    // 2.4 GB on the busiest day (the last): the axis ends at 2.5 GB, in half-GB steps.
    const days = month((index) => (index === 29 ? 2.4 * KB_PER_GB : index === 0 ? 0 : 0.6 * KB_PER_GB));
    const { container } = renderWithApp(<DailyUsageChart days={days} label="Carried by the gateway" />);
    expect(screen.getByText('Carried by the gateway: 19.200 GB in the last 30 days')).toBeTruthy();
    const bars = barsOf(container);
    expect(bars).toHaveLength(30);
    expect(heightOf(bars[29] as HTMLElement)).toBe('96%');
    expect(heightOf(bars[1] as HTMLElement)).toBe('24%');
    expect(heightOf(bars[0] as HTMLElement)).toBe('0%');
    const chart = chartOf(container);
    for (const tick of ['0 GB', '0.5 GB', '1 GB', '1.5 GB', '2 GB', '2.5 GB'])
      expect(chart.getByText(tick)).toBeTruthy();
    // Every seventh day named under the bars, today's included.
    for (const day of ['Oct 30', 'Nov 6', 'Nov 13', 'Nov 20', 'Nov 27']) expect(chart.getByText(day)).toBeTruthy();
    expect(chart.queryByText('Nov 26')).toBeNull();

    // The figures as a table, behind a disclosure closed at first.
    const disclosure = screen.getByText('Figures per day').closest('details');
    expect(disclosure?.open).toBe(false);
    const table = screen.getByRole('table', { name: 'Carried by the gateway, per day over the last 30 days' });
    expect(disclosure?.contains(table)).toBe(true);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(
      within(rows[30] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Nov 27', '2.4']);
  });

  it('counts small amounts in MB, and draws an empty month against 0 to 1 MB', () => {
    const small = renderWithApp(<DailyUsageChart days={month((index) => (index === 3 ? 512 : 0))} label="Data used" />);
    expect(screen.getByText('Data used: 0.001 GB in the last 30 days')).toBeTruthy();
    // 0.5 MB on one day: the axis ends at 0.5 MB.
    expect(screen.getAllByText('0.5 MB')).toHaveLength(1);
    expect(within(screen.getByRole('table')).getByRole('columnheader', { name: 'MB' })).toBeTruthy();
    small.unmount();

    // A single KB (0.001 MB): the figures beside the lines still differ.
    const tiny = renderWithApp(<DailyUsageChart days={month((index) => (index === 3 ? 1 : 0))} label="Data used" />);
    const figures = [...tiny.container.querySelectorAll('[class*="tick"]')].map((tick) => tick.textContent);
    expect(figures).toEqual(['0 MB', '0.002 MB', '0.004 MB', '0.006 MB', '0.008 MB', '0.01 MB']);
    tiny.unmount();

    const { container } = renderWithApp(<DailyUsageChart days={month(() => 0)} label="Data used" />);
    expect(screen.getByText('0 MB')).toBeTruthy();
    expect(screen.getByText('1 MB')).toBeTruthy();
    expect(barsOf(container).every((bar) => heightOf(bar) === '0%')).toBe(true);
  });

  it('shows the day pointed at or tapped under its bar in place of the dates', () => {
    const days = month((index) => index * 0.1 * KB_PER_GB);
    const { container } = renderWithApp(<DailyUsageChart days={days} label="Data used" />);
    const bars = barsOf(container);
    const chart = chartOf(container);
    fireEvent.pointerEnter(bars[20] as HTMLElement, { pointerType: 'mouse' });
    expect(chart.getByText('Nov 18: 2 GB')).toBeTruthy();
    expect(chart.queryByText('Nov 27')).toBeNull();
    expect((bars[20] as HTMLElement).dataset.active).toBe('true');
    // The mouse leaving the chart takes it away.
    fireEvent.pointerLeave(bars[20]?.parentElement as HTMLElement, { pointerType: 'mouse' });
    expect(chart.queryByText('Nov 18: 2 GB')).toBeNull();
    expect(chart.getByText('Nov 27')).toBeTruthy();
    // A finger lifted from the screen leaves it too, yet the figure stays until the next tap.
    fireEvent.pointerEnter(bars[3] as HTMLElement, { pointerType: 'touch' });
    fireEvent.pointerLeave(bars[3]?.parentElement as HTMLElement, { pointerType: 'touch' });
    expect(chart.getByText('Nov 1: 0.3 GB')).toBeTruthy();
  });
});
