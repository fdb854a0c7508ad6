import { Alert, Container, Stack } from '@mantine/core';
import { sandboxMessages } from '@storefront/contract';
import { IconFlask } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The frame of the sandbox provider's own pages: narrow, under a banner that says plainly no real money moves. */
export function SandboxFrame({ width, children }: { width: number; children: ReactNode }) {
  return (
    <Container size={width} py={40}>
      <Stack gap="md">
        <Alert color="yellow" variant="filled" icon={<IconFlask size={18} aria-hidden />} title="Test mode">
          {sandboxMessages.notice}
        </Alert>
        {children}
      </Stack>
    </Container>
  );
}
