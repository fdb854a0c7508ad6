import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { authMessages } from '@storefront/contract';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { NewPasswordForm } from '../../../components/new-password-form.tsx';
import { ApiError, callApi } from '../../../lib/api-client.ts';

/** Settings' Change Password dialog: new password and confirm, then a success view with 'Done' and 'Change Again'. */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A new form (empty fields) each time the dialog opens or 'Change Again' is chosen.
  const [formKey, setFormKey] = useState(0);

  const close = () => {
    onClose();
    setDone(false);
    setError(null);
    setFormKey((key) => key + 1);
  };

  const submit = async (newPassword: string) => {
    setError(null);
    try {
      await callApi('changePassword', {
        body: { newPassword },
        fallbackMessage: 'The password could not be changed. Please try again.',
      });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The password could not be changed. Please try again.');
      return;
    }
    notifications.show({ color: 'green', message: authMessages.passwordUpdated });
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
        </NewPasswordForm>
      )}
    </Modal>
  );
}
