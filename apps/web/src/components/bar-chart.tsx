import { VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import classes from './bar-chart.module.css';

export interface Bar {
  key: string;
  /** The bar's name in the readout and the table ("Nov 25", "Nov 25, 2 PM"). */
  label: string;
  /** In the chart's unit. */
  value: number;
}

export interface BarColumn {
  header: string;
  cell: (index: number) => string;
}

export const barFigure = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });

/**
 * Bars laid out by CSS in percentages of the chart's box, so the server draws it whole with the page and the browser
 * measures nothing (the decision record 2026-11-27-usage-chart-drawn-with-the-page.md). Pointing at or tapping a bar
 * shows its figure in place of the labels under the bars; the figures are also a table in a disclosure, which a
 * keyboard and a screen reader open alike.
 */
export function BarChart({
  bars,
  unit,
  top,
  lines,
  axisLabel,
  figures,
}: {
  bars: readonly Bar[];
  unit: string;
  /** The axis's end, in the unit: at or above the largest bar. */
  top: number;
  /** The axis's lines, in the unit. */
  lines: readonly number[];
  /** The label under a bar, if it has one; a minor one is left out where the chart is narrow. */
  axisLabel: (index: number) => { text: string; minor: boolean } | null;
  figures: { summary: string; caption: string; columns: readonly BarColumn[] };
}) {
  const [active, setActive] = useState<number | null>(null);
  const percent = (value: number) => `${(value / top) * 100}%`;
  /** The middle of a bar, across the chart. */
  const at = (index: number) => `${((index + 0.5) / bars.length) * 100}%`;
  const shown = active === null ? undefined : bars[active];
  return (
    <>
      <div className={classes.chart} aria-hidden>
        <div className={classes.plot}>
          {lines.map((line) => (
            <div key={line} className={classes.line} style={{ bottom: percent(line) }}>
              <span className={classes.tick}>{`${barFigure(line)} ${unit}`}</span>
            </div>
          ))}
          {/* A mouse or pen shows a bar's figure while it points at it; a tap keeps it until the next. */}
          <div className={classes.bars} onPointerLeave={(event) => event.pointerType !== 'touch' && setActive(null)}>
            {bars.map((bar, index) => (
              <div
                key={bar.key}
                className={classes.slot}
                data-active={index === active || undefined}
                onPointerEnter={() => setActive(index)}
              >
                <div className={classes.bar} style={{ height: percent(bar.value), minHeight: bar.value > 0 ? 1 : 0 }} />
              </div>
            ))}
          </div>
        </div>
        {/* Under the bars: the labels, centred under their bars, or the figure of the bar pointed at, anchored from its
            left end at the first bar to its right end at the last, so that it never leaves the chart. */}
        <div className={classes.days}>
          {shown && active !== null ? (
            <span className={classes.readout} style={{ left: at(active), transform: `translateX(-${at(active)})` }}>
              {`${shown.label}: ${barFigure(shown.value)} ${unit}`}
            </span>
          ) : (
            bars.map((bar, index) => {
              const label = axisLabel(index);
              return label ? (
                <span key={bar.key} style={{ left: at(index) }} data-minor={label.minor || undefined}>
                  {label.text}
                </span>
              ) : null;
            })
          )}
        </div>
      </div>
      <details className={classes.figures}>
        <summary>{figures.summary}</summary>
        <table>
          <caption>
            <VisuallyHidden>{figures.caption}</VisuallyHidden>
          </caption>
          <thead>
            <tr>
              {figures.columns.map((column) => (
                <th key={column.header} scope="col">
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {bars.map((bar, index) => (
              <tr key={bar.key}>
                {figures.columns.map((column) => (
                  <td key={column.header}>{column.cell(index)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}
