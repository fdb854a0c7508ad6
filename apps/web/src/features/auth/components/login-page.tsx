import { Anchor, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, isValidEmail, PASSWORD_MIN, paths } from '@storefront/contract';
import { Suspense, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { FormError } from '../../../components/form-error.tsx';
import { authErrorMessage } from '../../../lib/auth-error-message.ts';
import { loadAuthClient, usePreloadAuthClient } from '../../../lib/load-auth-client.ts';
import { splitPart } from '../../../lib/split-part.tsx';
import { showToast } from '../../../lib/toasts.ts';
import { useAuth, useRefreshAfterAuthChange } from '../../../lib/use-auth.ts';
import { AuthLayout } from './auth-layout.tsx';
import { EmailField } from './email-field.tsx';
import { SocialButtons } from './social-buttons.tsx';

/** The code step, for an account with two-factor on: loaded as the sign-in is sent, which may ask for it. */
const twoFactorStep = splitPart(async () => (await import('./two-factor-step.tsx')).TwoFactorStep);

const notVerifiedHint = 'We have sent you a new confirmation link: open it to finish signing in.';

export function LoginPage() {
  usePreloadAuthClient();
  const navigate = useNavigate();
  const refreshAuth = useRefreshAfterAuthChange();
  const { user } = useAuth();
  const [error, setError] = useState<string | null>(null);
  // Set once this page signs the user in, so that only finish() navigates (not also the already-signed-in redirect).
  const [signedInHere, setSignedInHere] = useState(false);
  const [needsSecondFactor, setNeedsSecondFactor] = useState(false);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (isValidEmail(value.trim()) ? null : authMessages.invalidEmail),
      password: (value) => (value.length >= PASSWORD_MIN ? null : authMessages.passwordTooShort),
    },
  });

  const finish = async () => {
    setSignedInHere(true);
    await refreshAuth();
    showToast({ color: 'green', message: authMessages.welcomeBack });
    navigate(paths.dashboard);
  };

  const submit = form.onSubmit(async ({ email, password }) => {
    setError(null);
    twoFactorStep.preload().catch(() => {});
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) return setError(authMessages.authClientUnavailable);
    const { data, error: signInError } = await authClient.signIn.email({
      email: email.trim(),
      password,
    });
    if (signInError?.code === 'EMAIL_NOT_VERIFIED') {
      return setError(`${signInError.message ?? 'Email not verified'}. ${notVerifiedHint}`);
    }
    if (signInError) return setError(authErrorMessage(signInError, 'Sign-in failed. Please try again.'));
    if (data && 'twoFactorRedirect' in data && data.twoFactorRedirect) return setNeedsSecondFactor(true);
    await finish();
  });

  if (user && !needsSecondFactor && !signedInHere) return <Navigate to={paths.dashboard} replace />;

  if (needsSecondFactor) {
    return (
      <AuthLayout title="Two-factor authentication" subtitle="Enter the 6-digit code from your authenticator app.">
        <Suspense fallback={null}>
          <twoFactorStep.Part onVerified={finish} onCancel={() => setNeedsSecondFactor(false)} />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign in" subtitle="Welcome back. Sign in to manage and buy proxies.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError message={error} onClose={() => setError(null)} />
          <EmailField key={form.key('email')} {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            withAsterisk
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end" mt={-8}>
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={form.submitting}>
            Sign In
          </Button>
          <SocialButtons onError={setError} />
          <Text size="sm" ta="center">
            No account yet?{' '}
            <Anchor component={Link} to={paths.signup}>
              Create one
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
