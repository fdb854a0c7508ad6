import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, PASSWORD_MIN } from '@storefront/contract';
import { type ReactNode, useId } from 'react';
import { PasswordRequirements } from './password-requirements.tsx';

/**
 * New password and its confirmation with the reset/change rules of spec section 5 (6 characters, must match). The
 * server holds every new password to the sign-up rules, so the form shows the same hint as sign-up.
 */
export function NewPasswordForm({
  submitLabel,
  onSubmit,
  children,
}: {
  submitLabel: string;
  onSubmit: (newPassword: string) => Promise<void>;
  /** Shown above the fields (an error alert, say). */
  children?: ReactNode;
}) {
  const hintId = useId();
  const form = useForm({
    initialValues: { password: '', confirmPassword: '' },
    validate: {
      password: (value) => (value.length >= PASSWORD_MIN ? null : authMessages.passwordTooShort),
      confirmPassword: (value, values) => (value === values.password ? null : authMessages.passwordsDoNotMatch),
    },
  });
  return (
    <form onSubmit={form.onSubmit(({ password }) => onSubmit(password))} noValidate>
      <Stack gap="md">
        {children}
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          withAsterisk
          data-autofocus
          aria-describedby={hintId}
          {...form.getInputProps('password')}
        />
        <PasswordRequirements id={hintId} value={form.values.password} />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          withAsterisk
          {...form.getInputProps('confirmPassword')}
        />
        <Button type="submit" fullWidth loading={form.submitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
