import { Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';

/**
 * The positions of the pages opened after a list's first (each the `next` its page before gave): a list read by position
 * goes forward by adding one and back by taking the last off.
 */
export function usePositions() {
  const [positions, setPositions] = useState<string[]>([]);
  return {
    current: positions.at(-1),
    page: positions.length + 1,
    back: () => setPositions((list) => list.slice(0, -1)),
    forward: (next: string) => setPositions((list) => [...list, next]),
    reset: () => setPositions([]),
  };
}

/** Back and forward through a list read by position, with the page's number and whether more follow. */
export function PositionPager({
  positions,
  next,
  waiting,
  labels,
}: {
  positions: ReturnType<typeof usePositions>;
  next: string | null | undefined;
  /** The page shown is the last one's while the next arrives: forward waits. */
  waiting: boolean;
  labels: { back: string; forward: string; last: string };
}) {
  if (positions.page === 1 && !next) return null;
  return (
    // On a phone the words between the buttons wrap, not the buttons.
    <Group gap="xs" justify="space-between" wrap="nowrap" preventGrowOverflow={false}>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconChevronLeft size={14} aria-hidden />}
        disabled={positions.page === 1}
        onClick={positions.back}
      >
        {labels.back}
      </Button>
      <Text size="xs" c="dimmed" ta="center" flex={1}>
        Page {positions.page}
        {next ? ', more after it' : `, ${labels.last}`}
      </Text>
      <Button
        size="xs"
        variant="default"
        rightSection={<IconChevronRight size={14} aria-hidden />}
        disabled={!next || waiting}
        onClick={() => next && positions.forward(next)}
      >
        {labels.forward}
      </Button>
    </Group>
  );
}
