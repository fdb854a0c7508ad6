import { Card, Group, Text, Title } from '@mantine/core';
import { KB_PER_GB, type UsageReport } from '@storefront/contract';
import { BarChart, barFigure } from '../../../components/bar-chart.tsx';
import { formatCount, pointLabel } from '../usage-model.ts';
import { CsvButton } from './csv-button.tsx';

const BYTES_PER_MB = (KB_PER_GB / 1000) * 1024;
const BYTES_PER_GB = KB_PER_GB * 1024;
/** About this many labels under the bars, whatever their number. */
const LABELS = 6;

/** A round top for the axis: 1, 2 or 5 times a power of ten at or above the largest bar. */
function roundTop(largest: number): number {
  if (largest <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(largest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= largest) ?? 10 * power;
}

/** The range's data per hour or day; the exact figures, with the connections, are a table under "Figures". */
export function UsageChart({ report, timeZone }: { report: UsageReport; timeZone: string | undefined }) {
  const largest = Math.max(0, ...report.series.map((point) => point.bytes));
  const inGb = largest >= BYTES_PER_GB;
  const unit = inGb ? 'GB' : 'MB';
  const bars = report.series.map((point) => ({
    key: point.start,
    label: pointLabel(point.start, report.by, timeZone),
    value: point.bytes / (inGb ? BYTES_PER_GB : BYTES_PER_MB),
  }));
  const top = roundTop(Math.max(0, ...bars.map((bar) => bar.value)));
  const every = Math.max(1, Math.ceil(bars.length / LABELS));
  const title = report.by === 'hour' ? 'Data used by hour' : 'Data used by day';
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        <CsvButton report={report} table="series" label={title} timeZone={timeZone} />
      </Group>
      <BarChart
        bars={bars}
        unit={unit}
        top={top}
        lines={[0, top / 2, top]}
        axisLabel={(index) => {
          const bar = bars[index];
          if (index % every !== 0 || !bar) return null;
          // By the hour the label under a bar is its hour alone; the readout and the table say the day too.
          const text = report.by === 'hour' ? bar.label.slice(bar.label.lastIndexOf(' ') + 1) : bar.label;
          return { text, minor: (index / every) % 2 === 1 };
        }}
        figures={{
          summary: 'Figures',
          caption: `${title}, ${report.from} to ${report.to}`,
          columns: [
            { header: report.by === 'hour' ? 'Hour' : 'Day', cell: (index) => bars[index]?.label ?? '' },
            { header: unit, cell: (index) => barFigure(bars[index]?.value ?? 0) },
            { header: 'Connections', cell: (index) => formatCount(report.series[index]?.connections ?? 0) },
          ],
        }}
      />
      <Text size="xs" c="dimmed" mt={4}>
        {`Times in ${report.timeZone}`}
      </Text>
    </Card>
  );
}
