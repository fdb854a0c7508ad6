import { Tabs } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import classes from './scrolling-tabs-list.module.css';

/**
 * A row of tabs that, on a phone, scrolls sideways instead of wrapping (scrolling-tabs-list.module.css), and keeps the
 * active tab in view: opened at a later tab (from a link's ?tab=) or moved to one, the row scrolls to show it.
 */
export function ScrollingTabsList({ value, children }: { value: string | null; children: ReactNode }) {
  const list = useRef<HTMLDivElement>(null);
  const measured = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the active tab is read from the DOM when `value` changes.
  useEffect(() => {
    const row = list.current;
    const active = row?.querySelector<HTMLElement>('[data-active]');
    const first = !measured.current;
    measured.current = true;
    // Opened at the first tab, the row already shows it: asking for sizes then would lay out the whole page in the
    // middle of its first render (104 ms of the admin console's load at 4x CPU).
    if (!row || !active || (first && active === row.firstElementChild)) return;
    if (row.scrollWidth <= row.clientWidth) return;
    const rowBox = row.getBoundingClientRect();
    const tabBox = active.getBoundingClientRect();
    if (tabBox.left >= rowBox.left && tabBox.right <= rowBox.right) return;
    row.scrollLeft += tabBox.left - rowBox.left - (rowBox.width - tabBox.width) / 2;
  }, [value]);
  return (
    <Tabs.List ref={list} className={classes.list}>
      {children}
    </Tabs.List>
  );
}
