import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, passwordStrengthProblem } from '@storefront/contract';
import { type ReactNode, useId } from 'react';
import { PasswordRequirements } from './password-requirements.tsx';

/**
 * New password and its confirmation (reset and change password), held to the one password rule of sign-up and the
 * server, not the spec's 6 characters (docs/decisions/2026-11-25-password-rule.md); the confirmation must match.
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
      password: (value) => passwordStrengthProblem(value),
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
