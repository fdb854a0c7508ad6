import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { authMessages, isValidEmail, passwordStrengthProblem, paths } from '@storefront/contract';
import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { FormError } from '../../../components/form-error.tsx';
import { authClient, authErrorMessage } from '../../../lib/auth-client.ts';
import { useAuth, useRefreshAfterAuthChange } from '../../../lib/use-auth.ts';
import { AuthLayout } from './auth-layout.tsx';
import { EmailField } from './email-field.tsx';
import { PasswordRequirements } from './password-requirements.tsx';
import { SocialButtons } from './social-buttons.tsx';

export function SignupPage() {
  const navigate = useNavigate();
  const refreshAuth = useRefreshAfterAuthChange();
  const { user } = useAuth();
  const [error, setError] = useState<string | null>(null);
  // Set once this page signs the user in, so that only finish() navigates (not also the already-signed-in redirect).
  const [signedInHere, setSignedInHere] = useState(false);
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
    const { error: signUpError } = await authClient.signUp.email({
      email: address,
      password,
      name: address.split('@')[0] ?? address,
      callbackURL: paths.authCallback,
    });
    if (signUpError) return setError(authErrorMessage(signUpError, 'Sign-up failed. Please try again.'));
    setSignedInHere(true);
    await refreshAuth();
    notifications.show({
      color: 'green',
      title: 'Welcome aboard!',
      message: `Your account is ready. We sent a link to ${address} to confirm your address.`,
    });
    navigate(paths.dashboard);
  });

  if (user && !signedInHere) return <Navigate to={paths.dashboard} replace />;

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
