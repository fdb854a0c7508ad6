import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  PasswordInput,
  PinInput,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { authMessages, enteredPasswordProblem, totpCodeProblem } from '@storefront/contract';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { loadAuthClient } from '../../../lib/load-auth-client.ts';

type Step =
  | { kind: 'closed' }
  | { kind: 'password'; action: 'enable' | 'disable' }
  | { kind: 'scan'; totpURI: string; backupCodes: string[] };

/** TOTP two-factor: set up with a QR code and backup codes, confirmed by a first code; turned off with the password. */
export function TwoFactorCard({ enabled, onChanged }: { enabled: boolean; onChanged: () => Promise<void> }) {
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  // Each step's problem is said in the dialog's alert, where the auth service's answer (`error`) is said too, and stays
  // until the step's button is pressed again.
  const passwordForm = useForm({
    initialValues: { password: '' },
    clearInputErrorOnChange: false,
    validate: { password: enteredPasswordProblem },
  });
  const codeForm = useForm({
    initialValues: { code: '' },
    clearInputErrorOnChange: false,
    validate: { code: totpCodeProblem },
  });
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setStep({ kind: 'closed' });
    passwordForm.reset();
    codeForm.reset();
    setError(null);
  };

  const submitPassword = passwordForm.onSubmit(async ({ password }) => {
    if (step.kind !== 'password') return;
    setError(null);
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) return setError(authMessages.authClientUnavailable);
    if (step.action === 'enable') {
      const { data, error: enableError } = await authClient.twoFactor.enable({ password });
      if (enableError || !data || data.method !== 'totp') {
        return setError(enableError?.message || 'Two-factor could not be set up.');
      }
      setStep({ kind: 'scan', totpURI: data.totpURI, backupCodes: data.backupCodes });
    } else {
      const { error: disableError } = await authClient.twoFactor.disable({ password });
      if (disableError) return setError(disableError.message || 'Two-factor could not be turned off.');
      notifications.show({ color: 'green', message: 'Two-factor authentication turned off' });
      reset();
      // Not waited for: the dialog is closed, its button free again at once.
      void onChanged();
    }
  });

  const confirmCode = codeForm.onSubmit(async ({ code }) => {
    setError(null);
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) return setError(authMessages.authClientUnavailable);
    const { error: verifyError } = await authClient.twoFactor.verifyTotp({ code });
    if (verifyError) return setError(verifyError.message || 'That code did not work. Please try again.');
    notifications.show({ color: 'green', message: 'Two-factor authentication is on' });
    reset();
    void onChanged();
  });

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
            setStep({ kind: 'password', action: enabled ? 'disable' : 'enable' });
          }}
        >
          {enabled ? 'Turn Off' : 'Set Up Two-Factor'}
        </Button>
      </Group>

      <Modal
        opened={step.kind !== 'closed'}
        onClose={reset}
        title={step.kind === 'scan' ? 'Scan and confirm' : 'Confirm your password'}
        centered
        size={step.kind === 'scan' ? 'lg' : 'md'}
      >
        {step.kind === 'password' && (
          <form onSubmit={submitPassword} noValidate>
            <Stack gap="md">
              <FormError message={(passwordForm.errors.password as string | undefined) ?? error} />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                data-autofocus
                {...passwordForm.getInputProps('password', { withError: false })}
                description="Signed up with Google or Discord? Set a password with Change Password first."
              />
              <Button type="submit" loading={passwordForm.submitting}>
                Continue
              </Button>
            </Stack>
          </form>
        )}
        {step.kind === 'scan' && (
          <form onSubmit={confirmCode} noValidate>
            <Stack gap="md">
              <FormError message={(codeForm.errors.code as string | undefined) ?? error} />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
                <Stack gap="xs" align="center">
                  <div
                    role="img"
                    aria-label="Two-factor QR code"
                    style={{ background: '#fff', padding: 12, borderRadius: 8, lineHeight: 0 }}
                  >
                    <QRCodeSVG value={step.totpURI} size={176} aria-hidden />
                  </div>
                  <Text size="xs" c="dimmed" ta="center">
                    Scan with your authenticator app.
                  </Text>
                  <Text size="xs" c="dimmed" ta="center">
                    Or type this key:
                  </Text>
                  <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                    {new URL(step.totpURI).searchParams.get('secret') ?? ''}
                  </Code>
                </Stack>
                <Stack gap="xs">
                  <Text size="sm" fw={500}>
                    Backup codes
                  </Text>
                  <Text size="xs" c="dimmed">
                    Keep these somewhere safe. Each one signs you in once if you lose your phone.
                  </Text>
                  <Code block data-testid="backup-codes">
                    {step.backupCodes.join('\n')}
                  </Code>
                  <CopyButton value={step.backupCodes.join('\n')}>
                    {({ copied, copy }) => (
                      <Button size="compact-xs" variant="subtle" onClick={copy}>
                        {copied ? 'Copied' : 'Copy backup codes'}
                      </Button>
                    )}
                  </CopyButton>
                </Stack>
              </SimpleGrid>
              <Alert variant="light" color="blue">
                Enter the 6-digit code your app shows to turn two-factor on.
              </Alert>
              <Group justify="center">
                <PinInput
                  length={6}
                  type="number"
                  oneTimeCode
                  {...codeForm.getInputProps('code', { withError: false })}
                  aria-label="Code"
                />
              </Group>
              <Button type="submit" loading={codeForm.submitting}>
                Verify and Turn On
              </Button>
            </Stack>
          </form>
        )}
      </Modal>
    </Card>
  );
}
