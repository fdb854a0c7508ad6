import { Alert, Anchor, Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { authMessages, paths } from '@storefront/contract';
import { IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormError } from '../../../components/form-error.tsx';
import { NewPasswordForm } from '../../../components/new-password-form.tsx';
import { authErrorMessage } from '../../../lib/auth-error-message.ts';
import { loadAuthClient, usePreloadAuthClient } from '../../../lib/load-auth-client.ts';
import { showToast } from '../../../lib/toasts.ts';
import { AuthLayout } from './auth-layout.tsx';

export const REDIRECT_AFTER_RESET_MS = 3000;

export function ResetPasswordPage() {
  usePreloadAuthClient();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const [error, setError] = useState<string | null>(null);
  const [updated, setUpdated] = useState(false);

  useEffect(() => {
    if (!updated) return;
    const timer = window.setTimeout(() => navigate(paths.login), REDIRECT_AFTER_RESET_MS);
    return () => window.clearTimeout(timer);
  }, [updated, navigate]);

  if (updated) {
    return (
      <AuthLayout title="Password Updated!">
        <Stack gap="md">
          <ThemeIcon size={48} radius="xl" color="green" variant="light" mx="auto">
            <IconCircleCheck size={28} aria-hidden />
          </ThemeIcon>
          <Text ta="center">Your password has been changed. Taking you to sign in…</Text>
          <Button component={Link} to={paths.login}>
            Sign In Now
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  if (!token || params.get('error')) {
    return (
      <AuthLayout title="Reset password">
        <Stack gap="md">
          <Alert color="red" variant="light" title="This link cannot be used" role="alert">
            The reset link is invalid, has expired or was already used. Ask for a new one.
          </Alert>
          <Button component={Link} to={paths.forgotPassword}>
            Request a New Link
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to={paths.login}>
              Back to Login
            </Anchor>
          </Text>
        </Stack>
      </AuthLayout>
    );
  }

  const submit = async (newPassword: string) => {
    setError(null);
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) return setError(authMessages.authClientUnavailable);
    const { error: resetError } = await authClient.resetPassword({ newPassword, token });
    if (resetError)
      return setError(authErrorMessage(resetError, 'The password could not be changed. Please try again.'));
    showToast({ color: 'green', message: authMessages.passwordUpdated });
    setUpdated(true);
  };

  return (
    <AuthLayout title="Set a new password" subtitle="Choose a new password for your account.">
      <NewPasswordForm submitLabel="Update Password" onSubmit={submit}>
        <FormError message={error} onClose={() => setError(null)} />
      </NewPasswordForm>
    </AuthLayout>
  );
}
