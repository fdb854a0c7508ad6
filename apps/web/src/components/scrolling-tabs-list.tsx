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
    // Opened at the first tab, the row already shows it.
    if (!row || !active || (first && active === row.firstElementChild)) return;
    // Sizes are asked for once the browser has laid out and painted the new tab: asked for now, in React's commit, they
    // would lay out the whole page inside the same task.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        if (row.scrollWidth <= row.clientWidth) return;
        const rowBox = row.getBoundingClientRect();
        const tabBox = active.getBoundingClientRect();
        if (tabBox.left >= rowBox.left && tabBox.right <= rowBox.right) return;
        row.scrollLeft += tabBox.left - rowBox.left - (rowBox.width - tabBox.width) / 2;
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [value]);
  return (
    <Tabs.List ref={list} className={classes.list}>
      {children}
    </Tabs.List>
  );
}
