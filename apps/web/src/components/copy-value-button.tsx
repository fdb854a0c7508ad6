import { Button } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { CopyButton } from './copy-button.tsx';

/** A small button that copies `value` and says so for a moment (keys, links, lists). */
export function CopyValueButton({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button
          size="xs"
          variant={copied ? 'light' : 'default'}
          color={copied ? 'green' : undefined}
          leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={copy}
        >
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
}
