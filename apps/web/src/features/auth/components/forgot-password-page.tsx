import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, isValidEmail, paths } from '@storefront/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormError } from '../../../components/form-error.tsx';
import { authErrorMessage } from '../../../lib/auth-error-message.ts';
import { loadAuthClient, usePreloadAuthClient } from '../../../lib/load-auth-client.ts';
import { showToast } from '../../../lib/toasts.ts';
import { AuthLayout } from './auth-layout.tsx';
import { CheckEmail } from './check-email.tsx';
import { EmailField } from './email-field.tsx';

export function ForgotPasswordPage() {
  usePreloadAuthClient();
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (value) => (isValidEmail(value.trim()) ? null : authMessages.invalidEmail) },
  });

  const submit = form.onSubmit(async ({ email }) => {
    setError(null);
    const address = email.trim();
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) return setError(authMessages.authClientUnavailable);
    const { error: requestError } = await authClient.requestPasswordReset({
      email: address,
      redirectTo: paths.resetPassword,
    });
    if (requestError)
      return setError(authErrorMessage(requestError, 'We could not send the e-mail. Please try again.'));
    setSentTo(address);
    showToast({ color: 'green', message: authMessages.resetEmailSent });
  });

  if (sentTo) {
    return (
      <CheckEmail onTryAgain={() => setSentTo(null)}>
        If an account exists for <strong>{sentTo}</strong>, we have sent it a link to reset the password. The link works
        once and expires in one hour.
      </CheckEmail>
    );
  }

  return (
    <AuthLayout title="Forgot password" subtitle="Enter your e-mail and we will send you a link to set a new password.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError message={error} onClose={() => setError(null)} />
          <EmailField {...form.getInputProps('email')} />
          <Button type="submit" fullWidth loading={form.submitting}>
            Send Reset Link
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to={paths.login}>
              Back to Login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
