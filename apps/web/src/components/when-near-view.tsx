import { useIntersection } from '@mantine/hooks';
import { type ReactNode, useEffect, useState } from 'react';

/**
 * Renders `children` once this place comes within `margin` of the viewport, and keeps them; until then `placeholder`,
 * which should hold the same room so that nothing moves. For heavy parts below the fold (the usage chart and its own
 * 115 KB chunk): a page does not download and run them before anyone scrolls near them (issue 39).
 */
export function WhenNearView({
  children,
  placeholder,
  margin = '300px',
}: {
  children: ReactNode;
  placeholder: ReactNode;
  margin?: string;
}) {
  const { ref, entry } = useIntersection<HTMLDivElement>({ rootMargin: margin });
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (entry?.isIntersecting) setNear(true);
  }, [entry]);
  if (near) return children;
  return <div ref={ref}>{placeholder}</div>;
}
