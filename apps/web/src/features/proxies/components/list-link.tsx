import { Anchor, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { paths } from '@storefront/contract';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { Link } from 'react-router';

/** A proxy list link with its copy button; the key stays a placeholder (keys are shown once, when created). */
export function ListLink({ url, label = 'Copy Link' }: { url: string; label?: string }) {
  return (
    <Stack gap={6}>
      <Code block data-testid="proxy-list-link" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {url}
      </Code>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="xs" c="dimmed" maw={360}>
          Replace YOUR_API_KEY with one of your API keys (
          <Anchor component={Link} to={paths.settings} size="xs">
            Settings
          </Anchor>
          ). Tools that load it get your current proxies, swaps and renewals included.
        </Text>
        <CopyButton value={url}>
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
      </Group>
    </Stack>
  );
}
