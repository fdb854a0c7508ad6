import { Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The room content takes once its data has arrived, held while it loads: `children` is that content with stand-in
 * values, laid out but invisible and inert (out of the keyboard's and the screen reader's way) under a grey skeleton,
 * so nothing below moves when the real content takes its place (CLS at most 0.02). `inline`: as wide as the
 * content (a badge in a heading's row), not the whole row.
 */
export function Reserved({ children, inline = false }: { children: ReactNode; inline?: boolean }) {
  return (
    <Skeleton visible animate={false} radius="sm" w={inline ? 'fit-content' : undefined} data-reserved="">
      <div inert style={{ visibility: 'hidden', display: inline ? 'flex' : undefined }}>
        {children}
      </div>
    </Skeleton>
  );
}
