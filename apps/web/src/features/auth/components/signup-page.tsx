import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, isValidEmail, passwordStrengthProblem, paths } from '@storefront/contract';
import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { FormError } from '../../../components/form-error.tsx';
import { PasswordRequirements } from '../../../components/password-requirements.tsx';
import { authErrorMessage } from '../../../lib/auth-error-message.ts';
import { loadAuthClient, usePreloadAuthClient } from '../../../lib/load-auth-client.ts';
import { showToast } from '../../../lib/toasts.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { AuthLayout } from './auth-layout.tsx';
import { CheckEmail } from './check-email.tsx';
import { EmailField } from './email-field.tsx';
import { SocialButtons } from './social-buttons.tsx';

export function SignupPage() {
  usePreloadAuthClient();
  const { user } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '', password: '', confirmPassword: '' },
    validate: {
      email: (value) => (isValidEmail(value.trim()) ? null : authMessages.invalidEmail),
      password: (value) => passwordStrengthProblem(value),
      confirmPassword: (value, values) => (value === values.password ? null : authMessages.passwordsDoNotMatch),
    },
  });

  const submit = form.onSubmit(async ({ email, password }) => {
    setError(null);
    const address = email.trim();
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) return setError(authMessages.authClientUnavailable);
    const { error: signUpError } = await authClient.signUp.email({
      email: address,
      password,
      name: address.split('@')[0] ?? address,
      callbackURL: paths.authCallback,
    });
    if (signUpError) return setError(authErrorMessage(signUpError, 'Sign-up failed. Please try again.'));
    // The same answer whether or not the address already has an account: the e-mail tells the difference, and the
    // confirmation link signs the new customer in (/auth/callback, then the dashboard).
    setSentTo(address);
    showToast({
      color: 'green',
      title: 'Welcome aboard!',
      message: `Confirm your address with the link we sent to ${address} to open your dashboard.`,
    });
  });

  if (user) return <Navigate to={paths.dashboard} replace />;

  if (sentTo) {
    return (
      <CheckEmail onTryAgain={() => setSentTo(null)}>
        We have sent a link to <strong>{sentTo}</strong>. Open it to confirm your address and sign in; it expires in 24
        hours.
      </CheckEmail>
    );
  }

  return (
    <AuthLayout title="Create your account" subtitle="Buy ISP and residential proxies in minutes.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError message={error} onClose={() => setError(null)} />
          <EmailField {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            withAsterisk
            aria-describedby="password-requirements"
            {...form.getInputProps('password')}
          />
          <PasswordRequirements id="password-requirements" value={form.values.password} />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            withAsterisk
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" fullWidth loading={form.submitting}>
            Create Account
          </Button>
          <SocialButtons onError={setError} />
          <Text size="xs" c="dimmed" ta="center">
            By creating an account you agree to our{' '}
            <Anchor component={Link} to={paths.terms} size="xs">
              Terms of Service
            </Anchor>{' '}
            and{' '}
            <Anchor component={Link} to={paths.privacy} size="xs">
              Privacy Policy
            </Anchor>
            .
          </Text>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to={paths.login}>
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
