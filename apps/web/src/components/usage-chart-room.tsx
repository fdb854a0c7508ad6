/**
 * The room the usage chart (daily-usage-chart.tsx, its own chunk) takes: its line of text and its 180 px of bars, held
 * while the chart is not yet near the screen or its code loads, so that nothing below it moves when it arrives.
 */
export function UsageChartRoom() {
  return (
    <div
      aria-hidden
      style={{ height: 'calc(var(--mantine-font-size-xs) * var(--mantine-line-height-xs) + 4px + 180px)' }}
    />
  );
}
