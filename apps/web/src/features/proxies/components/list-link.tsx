import { Anchor, Code, Group, Stack, Text } from '@mantine/core';
import { paths } from '@storefront/contract';
import { Link } from 'react-router';
import { CopyValueButton } from '../../../components/copy-value-button.tsx';

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
        <CopyValueButton value={url} label={label} />
      </Group>
    </Stack>
  );
}
