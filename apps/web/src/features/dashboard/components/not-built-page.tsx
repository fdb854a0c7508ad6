import { Alert, Stack, Text, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { usePageTitle } from '../../../lib/use-page-title.ts';

/** A dashboard page whose feature has not been built yet: says so plainly rather than pretending. */
export function NotBuiltPage({ title, what }: { title: string; what: string }) {
  usePageTitle(title);
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Alert color="yellow" variant="light" title="Not built yet" icon={<IconTools size={18} aria-hidden />}>
        <Text size="sm">{what}</Text>
      </Alert>
    </Stack>
  );
}
