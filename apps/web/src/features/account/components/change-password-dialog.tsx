import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, passwordChangeMessages } from '@storefront/contract';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { NewPasswordForm } from '../../../components/new-password-form.tsx';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { showToast } from '../../../lib/toasts.ts';

/** The server's answers that ask for more proof than the spec's dialog holds: which field each one shows. */
const ASKS_FOR: Record<string, 'password' | 'code'> = {
  [passwordChangeMessages.currentPasswordRequired]: 'password',
  [passwordChangeMessages.wrongCurrentPassword]: 'password',
  [passwordChangeMessages.codeRequired]: 'code',
  [passwordChangeMessages.wrongCode]: 'code',
};

/**
 * Settings' Change Password dialog: new password and confirm, then a success view with 'Done' and 'Change Again'. A
 * sign-in older than a few minutes is asked by the server for the current password (and the authenticator's code with
 * two-factor on): the dialog then shows those fields too (docs/decisions/2026-11-28-security-fixes-iv.md).
 */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A new form (empty fields) each time the dialog opens or 'Change Again' is chosen.
  const [formKey, setFormKey] = useState(0);
  const [asks, setAsks] = useState<{ password: boolean; code: boolean }>({ password: false, code: false });
  // The proof the server asked for, beside the new password's own form: the server judges it and says what is wrong.
  const proof = useForm({ initialValues: { currentPassword: '', code: '' } });

  const close = () => {
    onClose();
    setDone(false);
    setError(null);
    setAsks({ password: false, code: false });
    proof.reset();
    setFormKey((key) => key + 1);
  };

  const submit = async (newPassword: string) => {
    setError(null);
    const { currentPassword, code } = proof.getValues();
    try {
      await callApi('changePassword', {
        body: {
          newPassword,
          ...(asks.password && { currentPassword }),
          ...(asks.code && { code: code.trim() }),
        },
        fallbackMessage: 'The password could not be changed. Please try again.',
      });
    } catch (caught) {
      const message =
        caught instanceof ApiError ? caught.message : 'The password could not be changed. Please try again.';
      const field = Object.hasOwn(ASKS_FOR, message) ? ASKS_FOR[message] : undefined;
      if (field) setAsks((shown) => ({ ...shown, password: true, [field]: true }));
      setError(message);
      return;
    }
    showToast({ color: 'green', message: authMessages.passwordUpdated });
    setDone(true);
  };

  return (
    <Modal opened={opened} onClose={close} title="Change Password" centered>
      {done ? (
        <Stack align="center" gap="md">
          <ThemeIcon size={48} radius="xl" color="green" variant="light">
            <IconCircleCheck size={28} aria-hidden />
          </ThemeIcon>
          <Text ta="center" fw={500}>
            Password updated!
          </Text>
          <Text ta="center" size="sm" c="dimmed">
            Your other devices have been signed out.
          </Text>
          <Group grow w="100%">
            <Button
              variant="default"
              onClick={() => {
                setDone(false);
                setFormKey((key) => key + 1);
              }}
            >
              Change Again
            </Button>
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <NewPasswordForm key={formKey} submitLabel="Update Password" onSubmit={submit}>
          <FormError message={error} />
          {asks.password && (
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              withAsterisk
              {...proof.getInputProps('currentPassword')}
            />
          )}
          {asks.code && (
            <TextInput
              label="Authentication code"
              description="The 6-digit code from your authenticator app"
              autoComplete="one-time-code"
              inputMode="numeric"
              withAsterisk
              {...proof.getInputProps('code')}
            />
          )}
        </NewPasswordForm>
      )}
    </Modal>
  );
}
