import { Card, Group, Text, Title, VisuallyHidden } from '@mantine/core';
import { KB_PER_GB, type UsageReport } from '@storefront/contract';
import { useState } from 'react';
import classes from '../../../components/daily-usage-chart.module.css';
import { formatCount, pointLabel } from '../usage-model.ts';
import { CsvButton } from './csv-button.tsx';

const BYTES_PER_MB = (KB_PER_GB / 1000) * 1024;
const BYTES_PER_GB = KB_PER_GB * 1024;
/** About this many labels under the bars, whatever their number. */
const LABELS = 6;

const figure = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** A round top for the axis: 1, 2 or 5 times a power of ten at or above the largest bar. */
function roundTop(largest: number): number {
  if (largest <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(largest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= largest) ?? 10 * power;
}

/**
 * The range's data per hour or day, drawn by hand as the Residential tab's daily chart is (bars in percentages of the
 * chart's box, so the server draws it whole); the exact figures are a table under "Figures".
 */
export function UsageChart({ report, timeZone }: { report: UsageReport; timeZone: string | undefined }) {
  const [active, setActive] = useState<number | null>(null);
  const largest = Math.max(0, ...report.series.map((point) => point.bytes));
  const inGb = largest >= BYTES_PER_GB;
  const unit = inGb ? 'GB' : 'MB';
  const bars = report.series.map((point) => ({
    label: pointLabel(point.start, report.by, timeZone),
    value: point.bytes / (inGb ? BYTES_PER_GB : BYTES_PER_MB),
    connections: point.connections,
  }));
  const top = roundTop(Math.max(0, ...bars.map((bar) => bar.value)));
  const lines = [0, top / 2, top];
  const every = Math.max(1, Math.ceil(bars.length / LABELS));
  const percent = (value: number) => `${(value / top) * 100}%`;
  const at = (index: number) => `${((index + 0.5) / bars.length) * 100}%`;
  const shown = active === null ? undefined : bars[active];
  const title = report.by === 'hour' ? 'Data used by hour' : 'Data used by day';
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        <CsvButton report={report} table="series" label={title} timeZone={timeZone} />
      </Group>
      <div className={classes.chart} aria-hidden>
        <div className={classes.plot}>
          {lines.map((line) => (
            <div key={line} className={classes.line} style={{ bottom: percent(line) }}>
              <span className={classes.tick}>{`${figure(line)} ${unit}`}</span>
            </div>
          ))}
          <div className={classes.bars} onPointerLeave={(event) => event.pointerType !== 'touch' && setActive(null)}>
            {bars.map((bar, index) => (
              <div
                key={report.series[index]?.start}
                className={classes.slot}
                data-active={index === active || undefined}
                onPointerEnter={() => setActive(index)}
              >
                <div className={classes.bar} style={{ height: percent(bar.value), minHeight: bar.value > 0 ? 1 : 0 }} />
              </div>
            ))}
          </div>
        </div>
        <div className={classes.days}>
          {shown && active !== null ? (
            <span className={classes.readout} style={{ left: at(active), transform: `translateX(-${at(active)})` }}>
              {`${shown.label}: ${figure(shown.value)} ${unit}`}
            </span>
          ) : (
            bars.map((bar, index) =>
              index % every === 0 ? (
                <span
                  key={report.series[index]?.start}
                  style={{ left: at(index) }}
                  data-minor={(index / every) % 2 === 1 || undefined}
                >
                  {report.by === 'hour' ? bar.label.slice(bar.label.lastIndexOf(' ') + 1) : bar.label}
                </span>
              ) : null,
            )
          )}
        </div>
      </div>
      <details className={classes.figures}>
        <summary>Figures</summary>
        <table>
          <caption>
            <VisuallyHidden>{`${title}, ${report.from} to ${report.to}`}</VisuallyHidden>
          </caption>
          <thead>
            <tr>
              <th scope="col">{report.by === 'hour' ? 'Hour' : 'Day'}</th>
              <th scope="col">{unit}</th>
              <th scope="col">Connections</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar, index) => (
              <tr key={report.series[index]?.start}>
                <td>{bar.label}</td>
                <td>{figure(bar.value)}</td>
                <td>{formatCount(bar.connections)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <Text size="xs" c="dimmed" mt={4}>
        {`Times in ${report.timeZone}`}
      </Text>
    </Card>
  );
}
