import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { lazyDialog } from '../../../components/lazy-dialog.tsx';
import { loadAuthClient } from '../../../lib/load-auth-client.ts';

const TwoFactorDialog = lazyDialog(async () => (await import('./two-factor-dialog.tsx')).TwoFactorDialog);

/** TOTP two-factor: set up with a QR code and backup codes, confirmed by a first code; turned off with the password. */
export function TwoFactorCard({ enabled, onChanged }: { enabled: boolean; onChanged: () => Promise<void> }) {
  const [action, setAction] = useState<'enable' | 'disable' | null>(null);

  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4} maw={520}>
          <Group gap="xs">
            <Title order={2} size="h4">
              Two-factor authentication
            </Title>
            <Badge color={enabled ? 'green' : 'gray'} variant="light">
              {enabled ? 'On' : 'Off'}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            Ask for a code from an authenticator app (Google Authenticator, 1Password, Authy…) at every sign-in.
          </Text>
        </Stack>
        <Button
          variant={enabled ? 'default' : 'filled'}
          onClick={() => {
            // better-auth's client loads while the password is typed (Settings shows without it).
            loadAuthClient().catch(() => {});
            setAction(enabled ? 'disable' : 'enable');
          }}
        >
          {enabled ? 'Turn Off' : 'Set Up Two-Factor'}
        </Button>
      </Group>

      <TwoFactorDialog
        opened={action !== null}
        action={action ?? 'enable'}
        onClose={() => setAction(null)}
        onChanged={onChanged}
      />
    </Card>
  );
}
