import { Anchor, Button, Checkbox, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, backupCodeProblem, totpCodeProblem } from '@storefront/contract';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { authErrorMessage } from '../../../lib/auth-error-message.ts';
import { loadAuthClient } from '../../../lib/load-auth-client.ts';

/** The second step of a sign-in with two-factor on: a TOTP code, or one of the backup codes. */
export function TwoFactorStep({ onVerified, onCancel }: { onVerified: () => Promise<void>; onCancel: () => void }) {
  // The code's problem is said in the alert, where the auth service's answer (`error`) is said too, and stays until
  // Verify is pressed again.
  const form = useForm({
    initialValues: { useBackupCode: false, code: '', trustDevice: false },
    clearInputErrorOnChange: false,
    validate: { code: (code, values) => (values.useBackupCode ? backupCodeProblem(code) : totpCodeProblem(code)) },
  });
  const { useBackupCode } = form.getValues();
  const [error, setError] = useState<string | null>(null);

  const verify = form.onSubmit(async (values) => {
    const value = values.code.trim();
    const { trustDevice } = values;
    setError(null);
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) return setError(authMessages.authClientUnavailable);
    const { error: verifyError } = values.useBackupCode
      ? await authClient.twoFactor.verifyBackupCode({ code: value, trustDevice })
      : await authClient.twoFactor.verifyTotp({ code: value, trustDevice });
    if (verifyError) return setError(authErrorMessage(verifyError, 'That code did not work. Please try again.'));
    // Not waited for: the button is free again once the code is accepted, while the page signs in.
    void onVerified();
  });

  return (
    <form onSubmit={verify} noValidate>
      <Stack gap="md">
        <FormError message={(form.errors.code as string | undefined) ?? error} />
        {useBackupCode ? (
          <TextInput
            label="Backup code"
            autoComplete="one-time-code"
            {...form.getInputProps('code', { withError: false })}
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
              {...form.getInputProps('code', { withError: false })}
              aria-labelledby="totp-label"
              inputMode="numeric"
            />
          </Stack>
        )}
        <Checkbox label="Trust this device for 30 days" {...form.getInputProps('trustDevice', { type: 'checkbox' })} />
        <Button type="submit" fullWidth loading={form.submitting}>
          Verify
        </Button>
        <Text size="sm" ta="center">
          <Anchor
            component="button"
            type="button"
            onClick={() => {
              form.setValues({ useBackupCode: !useBackupCode, code: '' });
              form.clearErrors();
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
