import { Button, Group } from '@mantine/core';
import { IconFilter, IconX } from '@tabler/icons-react';

/** A list's filter form's buttons: Filter submits the form, Clear empties it and shows the whole list again. */
export function FilterButtons({ onClear }: { onClear: () => void }) {
  return (
    <Group gap="xs">
      <Button type="submit" variant="default" leftSection={<IconFilter size={16} aria-hidden />}>
        Filter
      </Button>
      <Button variant="subtle" leftSection={<IconX size={16} aria-hidden />} onClick={onClear}>
        Clear
      </Button>
    </Group>
  );
}
