import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  PasswordInput,
  PinInput,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, enteredPasswordProblem, totpCodeProblem } from '@storefront/contract';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { loadAuthClient } from '../../../lib/load-auth-client.ts';
import { showToast } from '../../../lib/toasts.ts';

/** What the authenticator app scans, and the backup codes, once the password is confirmed for turning it on. */
interface Scan {
  totpURI: string;
  backupCodes: string[];
}

/**
 * The two-factor dialog, open while `opened`: the password first, then (to turn it on) the QR code and backup codes,
 * confirmed by a first code. Loaded when first opened (two-factor-card.tsx).
 */
export function TwoFactorDialog({
  opened,
  action,
  onClose,
  onChanged,
}: {
  opened: boolean;
  action: 'enable' | 'disable';
  onClose: () => void;
  onChanged: () => Promise<void>;
}) {
  const [scan, setScan] = useState<Scan | null>(null);
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
    setScan(null);
    passwordForm.reset();
    codeForm.reset();
    setError(null);
    onClose();
  };

  const submitPassword = passwordForm.onSubmit(async ({ password }) => {
    if (scan) return;
    setError(null);
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) return setError(authMessages.authClientUnavailable);
    if (action === 'enable') {
      const { data, error: enableError } = await authClient.twoFactor.enable({ password });
      if (enableError || !data || data.method !== 'totp') {
        return setError(enableError?.message || 'Two-factor could not be set up.');
      }
      setScan({ totpURI: data.totpURI, backupCodes: data.backupCodes });
    } else {
      const { error: disableError } = await authClient.twoFactor.disable({ password });
      if (disableError) return setError(disableError.message || 'Two-factor could not be turned off.');
      showToast({ color: 'green', message: 'Two-factor authentication turned off' });
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
    showToast({ color: 'green', message: 'Two-factor authentication is on' });
    reset();
    void onChanged();
  });

  return (
    <Modal
      opened={opened}
      onClose={reset}
      title={scan ? 'Scan and confirm' : 'Confirm your password'}
      centered
      size={scan ? 'lg' : 'md'}
    >
      {opened && !scan && (
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
      {opened && scan && (
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
                  <QRCodeSVG value={scan.totpURI} size={176} aria-hidden />
                </div>
                <Text size="xs" c="dimmed" ta="center">
                  Scan with your authenticator app.
                </Text>
                <Text size="xs" c="dimmed" ta="center">
                  Or type this key:
                </Text>
                <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                  {new URL(scan.totpURI).searchParams.get('secret') ?? ''}
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
                  {scan.backupCodes.join('\n')}
                </Code>
                <CopyButton value={scan.backupCodes.join('\n')}>
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
  );
}
