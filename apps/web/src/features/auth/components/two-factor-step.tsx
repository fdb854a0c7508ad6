import { Anchor, Button, Checkbox, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { authMessages } from '@storefront/contract';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { authErrorMessage } from '../../../lib/auth-error-message.ts';
import { loadAuthClient } from '../../../lib/load-auth-client.ts';

/** The second step of a sign-in with two-factor on: a TOTP code, or one of the backup codes. */
export function TwoFactorStep({ onVerified, onCancel }: { onVerified: () => Promise<void>; onCancel: () => void }) {
  const [useBackupCode, setUseBackupCode] = useState(false);
  const [code, setCode] = useState('');
  const [trustDevice, setTrustDevice] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const verify = async (event: React.FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (useBackupCode ? value.length < 6 : !/^\d{6}$/.test(value)) {
      return setError(useBackupCode ? 'Enter one of your backup codes' : 'Enter the 6-digit code');
    }
    setPending(true);
    setError(null);
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) {
      setPending(false);
      return setError(authMessages.authClientUnavailable);
    }
    const { error: verifyError } = useBackupCode
      ? await authClient.twoFactor.verifyBackupCode({ code: value, trustDevice })
      : await authClient.twoFactor.verifyTotp({ code: value, trustDevice });
    setPending(false);
    if (verifyError) return setError(authErrorMessage(verifyError, 'That code did not work. Please try again.'));
    await onVerified();
  };

  return (
    <form onSubmit={verify} noValidate>
      <Stack gap="md">
        <FormError message={error} />
        {useBackupCode ? (
          <TextInput
            label="Backup code"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
        ) : (
          <Stack gap={6}>
            <Text size="sm" fw={500} id="totp-label">
              Authentication code
            </Text>
            <PinInput
              length={6}
              type="number"
              oneTimeCode
              autoFocus
              value={code}
              onChange={setCode}
              aria-labelledby="totp-label"
              inputMode="numeric"
            />
          </Stack>
        )}
        <Checkbox
          label="Trust this device for 30 days"
          checked={trustDevice}
          onChange={(event) => setTrustDevice(event.currentTarget.checked)}
        />
        <Button type="submit" fullWidth loading={pending}>
          Verify
        </Button>
        <Text size="sm" ta="center">
          <Anchor
            component="button"
            type="button"
            onClick={() => {
              setUseBackupCode(!useBackupCode);
              setCode('');
              setError(null);
            }}
          >
            {useBackupCode ? 'Use the authenticator app' : 'Use a backup code'}
          </Anchor>
          {' · '}
          <Anchor component="button" type="button" onClick={onCancel}>
            Back to sign in
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
