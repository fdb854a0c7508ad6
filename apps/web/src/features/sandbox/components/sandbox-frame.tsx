import { Alert, Container, Stack } from '@mantine/core';
import { sandboxMessages } from '@storefront/contract';
import { IconFlask } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { MAIN_CONTENT_ID, SkipLink } from '../../../components/skip-link.tsx';

/**
 * The frame of the sandbox provider's own pages: narrow, under a banner that says plainly no real money moves. The
 * banner and the page are landmarks of their own (header, main), so a screen reader can go to the payment directly.
 */
export function SandboxFrame({ width, children }: { width: number; children: ReactNode }) {
  return (
    <Container size={width} py={40}>
      <SkipLink />
      <Stack gap="md">
        <header>
          <Alert color="yellow" variant="filled" icon={<IconFlask size={18} aria-hidden />} title="Test mode">
            {sandboxMessages.notice}
          </Alert>
        </header>
        <Stack component="main" id={MAIN_CONTENT_ID} tabIndex={-1} gap="md">
          {children}
        </Stack>
      </Stack>
    </Container>
  );
}
