import '@mantine/charts/styles.layer.css';
import { BarChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import { type DailyUsage, formatDate, KB_PER_GB } from '@storefront/contract';

const KB_PER_MB = KB_PER_GB / 1000;

/**
 * Residential data carried per day (last 30 days), in GB or, for small amounts, MB. Loaded on its own (React.lazy): the
 * charting library stays out of the pages that do not show it.
 */
export default function DailyUsageChart({ days, label }: { days: DailyUsage['days']; label: string }) {
  const largest = Math.max(0, ...days.map((entry) => entry.usedInKb));
  const inGb = largest >= KB_PER_GB;
  const unit = inGb ? 'GB' : 'MB';
  const data = days.map((entry) => ({
    day: formatDate(`${entry.day}T00:00:00Z`, 'month-day', 'UTC'),
    [unit]: Number((entry.usedInKb / (inGb ? KB_PER_GB : KB_PER_MB)).toFixed(3)),
  }));
  const total = days.reduce((sum, entry) => sum + entry.usedInKb, 0);
  return (
    <div>
      <Text size="xs" c="dimmed" mb={4}>
        {label}: {(total / KB_PER_GB).toFixed(3)} GB in the last {days.length} days
      </Text>
      {/* A chart is one picture to a screen reader: its label says what it shows (the totals are in the text above). */}
      <div role="img" aria-label={`${label}, per day over the last ${days.length} days`}>
        <BarChart
          h={180}
          data={data}
          dataKey="day"
          series={[{ name: unit, color: 'blue.6' }]}
          unit={` ${unit}`}
          tickLine="none"
          gridAxis="x"
          withTooltip
          valueFormatter={(value) => value.toLocaleString('en-US', { maximumFractionDigits: 3 })}
          xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
          yAxisProps={{ width: 72, tickFormatter: (value: number) => String(Number(value.toFixed(2))) }}
        />
      </div>
    </div>
  );
}
