import { Text } from '@mantine/core';
import { type DailyUsage, formatDate, formatGb, KB_PER_GB } from '@storefront/contract';
import { nice, ticks } from 'd3-array';
import { BarChart, barFigure } from './bar-chart.tsx';

const KB_PER_MB = KB_PER_GB / 1000;
/** About this many lines across the chart (d3's `ticks` picks round steps near it). */
const Y_TICKS = 4;
/** A day's label under every seventh bar, counted back from today's (30 days: five labels). */
const LABEL_EVERY = 7;

/**
 * Residential data carried per day (the last 30 days), in GB or, for small amounts, MB; the figures per day are a table
 * under "Figures per day".
 */
export function DailyUsageChart({ days, label }: { days: DailyUsage['days']; label: string }) {
  const largest = Math.max(0, ...days.map((entry) => entry.usedInKb));
  const inGb = largest >= KB_PER_GB;
  const unit = inGb ? 'GB' : 'MB';
  const bars = days.map((entry) => ({
    key: entry.day,
    label: formatDate(`${entry.day}T00:00:00Z`, 'month-day', 'UTC'),
    value: entry.usedInKb / (inGb ? KB_PER_GB : KB_PER_MB),
  }));
  // The axis ends at a round figure at or above the largest day: 1 MB when nothing was carried, and never below 0.01,
  // so that its figures still differ in the three decimals shown (a month of 1 KB).
  const top = largest === 0 ? 1 : Math.max(nice(0, Math.max(...bars.map((bar) => bar.value)), Y_TICKS)[1], 0.01);
  const total = days.reduce((sum, entry) => sum + entry.usedInKb, 0);
  return (
    <div>
      <Text size="xs" c="dimmed" mb={4}>
        {`${label}: ${formatGb(total)} in the last ${days.length} days`}
      </Text>
      <BarChart
        bars={bars}
        unit={unit}
        top={top}
        lines={ticks(0, top, Y_TICKS)}
        // Every seventh day counted back from today's; every other one is minor (left out where the chart is narrow).
        axisLabel={(index) => {
          const back = bars.length - 1 - index;
          const bar = bars[index];
          return back % LABEL_EVERY === 0 && bar ? { text: bar.label, minor: back % (2 * LABEL_EVERY) !== 0 } : null;
        }}
        figures={{
          summary: 'Figures per day',
          caption: `${label}, per day over the last ${days.length} days`,
          columns: [
            { header: 'Day', cell: (index) => bars[index]?.label ?? '' },
            { header: unit, cell: (index) => barFigure(bars[index]?.value ?? 0) },
          ],
        }}
      />
    </div>
  );
}
