import { Text, VisuallyHidden } from '@mantine/core';
import { type DailyUsage, formatDate, formatGb, KB_PER_GB } from '@storefront/contract';
import { nice, ticks } from 'd3-array';
import { useState } from 'react';
import classes from './daily-usage-chart.module.css';

const KB_PER_MB = KB_PER_GB / 1000;
/** About this many lines across the chart (d3's `ticks` picks round steps near it). */
const Y_TICKS = 4;
/** A day's label under every seventh bar, counted back from today's (30 days: five labels). */
const LABEL_EVERY = 7;

const figure = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });

/**
 * Residential data carried per day (the last 30 days), in GB or, for small amounts, MB: bars laid out by CSS in
 * percentages of the chart's box, so the server draws it whole with the page and the browser measures nothing (the
 * decision record 2026-11-27-usage-chart-drawn-with-the-page.md). Pointing at or tapping a bar shows its day's figure;
 * the figures are also a table under "Figures per day" (a disclosure a keyboard and a screen reader open alike).
 */
export function DailyUsageChart({ days, label }: { days: DailyUsage['days']; label: string }) {
  const [active, setActive] = useState<number | null>(null);
  const largest = Math.max(0, ...days.map((entry) => entry.usedInKb));
  const inGb = largest >= KB_PER_GB;
  const unit = inGb ? 'GB' : 'MB';
  const bars = days.map((entry) => ({
    day: formatDate(`${entry.day}T00:00:00Z`, 'month-day', 'UTC'),
    value: entry.usedInKb / (inGb ? KB_PER_GB : KB_PER_MB),
  }));
  // The axis ends at a round figure at or above the largest day: 1 MB when nothing was carried, and never below 0.01,
  // so that its figures still differ in the three decimals shown (a month of 1 KB).
  const top = largest === 0 ? 1 : Math.max(nice(0, Math.max(...bars.map((bar) => bar.value)), Y_TICKS)[1], 0.01);
  const lines = ticks(0, top, Y_TICKS);
  const total = days.reduce((sum, entry) => sum + entry.usedInKb, 0);
  const shown = active === null ? undefined : bars[active];
  const percent = (value: number) => `${(value / top) * 100}%`;
  /** The middle of a day's bar, across the chart. */
  const at = (index: number) => `${((index + 0.5) / bars.length) * 100}%`;
  return (
    <div>
      <Text size="xs" c="dimmed" mb={4}>
        {`${label}: ${formatGb(total)} in the last ${days.length} days`}
      </Text>
      <div className={classes.chart} aria-hidden>
        <div className={classes.plot}>
          {lines.map((line) => (
            <div key={line} className={classes.line} style={{ bottom: percent(line) }}>
              <span className={classes.tick}>{`${figure(line)} ${unit}`}</span>
            </div>
          ))}
          {/* A mouse or pen shows a day's figure while it points at the bar; a tap keeps it until the next. */}
          <div className={classes.bars} onPointerLeave={(event) => event.pointerType !== 'touch' && setActive(null)}>
            {bars.map((bar, index) => (
              <div
                key={bar.day}
                className={classes.slot}
                data-active={index === active || undefined}
                onPointerEnter={() => setActive(index)}
              >
                <div className={classes.bar} style={{ height: percent(bar.value), minHeight: bar.value > 0 ? 1 : 0 }} />
              </div>
            ))}
          </div>
        </div>
        {/* Under the bars: every seventh day's date, centred under its bar, or the figure of the day pointed at, anchored
            from its left end at the first bar to its right end at the last, so that it never leaves the chart. */}
        <div className={classes.days}>
          {shown && active !== null ? (
            <span className={classes.readout} style={{ left: at(active), transform: `translateX(-${at(active)})` }}>
              {`${shown.day}: ${figure(shown.value)} ${unit}`}
            </span>
          ) : (
            bars.map((bar, index) =>
              (bars.length - 1 - index) % LABEL_EVERY === 0 ? (
                <span
                  key={bar.day}
                  style={{ left: at(index) }}
                  // Every other one left out where the chart is too narrow for five (the module's container query).
                  data-minor={(bars.length - 1 - index) % (2 * LABEL_EVERY) !== 0 || undefined}
                >
                  {bar.day}
                </span>
              ) : null,
            )
          )}
        </div>
      </div>
      {/* The figures themselves, for anyone: a screen reader, a keyboard, or whoever wants the exact amounts. */}
      <details className={classes.figures}>
        <summary>Figures per day</summary>
        <table>
          <caption>
            <VisuallyHidden>{`${label}, per day over the last ${days.length} days`}</VisuallyHidden>
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{unit}</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.day}>
                <td>{bar.day}</td>
                <td>{figure(bar.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
