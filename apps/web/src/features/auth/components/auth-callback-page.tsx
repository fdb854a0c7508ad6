import '../../../styles/app-mantine.ts';
import { Alert, Button, Loader, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, confirmationMessages, paths } from '@storefront/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { showToast } from '../../../lib/toasts.ts';
import { authQueryKey, fetchAuthCheck, useRefreshAfterAuthChange } from '../../../lib/use-auth.ts';
import { AuthLayout } from './auth-layout.tsx';

const ERROR_REDIRECT_MS = 4000;
const WELCOME_REDIRECT_MS = 800;

/** better-auth's error codes in words; any other message from the provider is shown as it is. */
const KNOWN_ERRORS: Record<string, string> = {
  invalid_token: confirmationMessages.INVALID_TOKEN,
  token_expired: confirmationMessages.TOKEN_EXPIRED,
  user_not_found: confirmationMessages.USER_NOT_FOUND,
  access_denied: 'Sign-in was cancelled at the provider.',
  state_mismatch: 'The sign-in took too long or was started in another browser. Please try again.',
  please_restart_the_process: 'The sign-in took too long. Please try again.',
  email_not_found: 'The provider did not share an e-mail address, which an account needs.',
  // A social sign-in makes an account only for an address the provider has verified (the server refuses the rest).
  unable_to_create_user:
    'No account was made: the provider has not verified this e-mail address. Verify it with the provider, or sign up ' +
    'with e-mail and password.',
  account_not_linked:
    'This address already has an account that is not confirmed. Confirm it with the link in your e-mail, or sign up ' +
    'with e-mail and password to claim it.',
};

export function callbackErrorMessage(params: URLSearchParams): string | null {
  const code = params.get('error');
  const description = params.get('error_description');
  if (!code && !description) return null;
  if (description) return description;
  const known = code ? KNOWN_ERRORS[code.toLowerCase().replaceAll(' ', '_')] : undefined;
  return known ?? (code && !/^[A-Z_]+$/i.test(code) ? code : authMessages.oauthFailed);
}

/**
 * The address a confirmation token is for, read from its payload to show the person what they confirm (the server
 * checks the token; this is only what the page says).
 */
export function confirmationAddress(token: string): string | null {
  try {
    const claims: unknown = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/')));
    const email = (claims as { email?: unknown } | null)?.email;
    return typeof email === 'string' ? email : null;
  } catch {
    return null;
  }
}

const CONFIRM_FAILED: string = confirmationMessages.failed;

/**
 * The mailed confirmation link leads here with its token. Confirming (which signs in) takes the password the account
 * was signed up with and a press of the button: a link alone, which any site can make a browser open, never signs
 * anyone in (login CSRF), and a stranger who signed up first with the address cannot hand its owner an account whose
 * password the stranger knows (the server checks the password).
 */
function ConfirmEmail({ token, onConfirmed }: { token: string; onConfirmed: () => void }) {
  const [error, setError] = useState<string | null>(null);
  // Any password but none: the server judges it (the one the account was signed up with).
  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (password) => (password === '' ? confirmationMessages.passwordRequired : null) },
  });
  const address = confirmationAddress(token);

  const confirm = form.onSubmit(async ({ password }) => {
    setError(null);
    try {
      await callApi('confirmEmail', { body: { token, password }, fallbackMessage: CONFIRM_FAILED });
      onConfirmed();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : CONFIRM_FAILED);
    }
  });

  return (
    <AuthLayout title="Confirm your e-mail address">
      <Stack gap="md">
        <Text>
          {address ? (
            <>
              Confirm <strong>{address}</strong> and sign in to its account.
            </>
          ) : (
            'Confirm your e-mail address and sign in.'
          )}
        </Text>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <form noValidate onSubmit={confirm}>
          <Stack gap="md">
            <PasswordInput
              label="Password"
              description="The password you chose when you signed up"
              autoComplete="current-password"
              {...form.getInputProps('password')}
              required
            />
            <Button type="submit" loading={form.submitting}>
              Confirm and sign in
            </Button>
          </Stack>
        </form>
        {error && (
          <Button component={Link} to={paths.login} variant="default">
            Back to Login
          </Button>
        )}
        <Text size="sm" c="dimmed">
          Not your address? Close this page; nothing changes until you confirm.
        </Text>
      </Stack>
    </AuthLayout>
  );
}

/** Finishes e-mail confirmation and social sign-in (spec section 2 '/auth/callback'). */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [confirmed, setConfirmed] = useState(false);
  if (token && !confirmed) return <ConfirmEmail token={token} onConfirmed={() => setConfirmed(true)} />;
  return <FinishSignIn params={params} />;
}

function FinishSignIn({ params }: { params: URLSearchParams }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refreshAuth = useRefreshAfterAuthChange();
  const [state, setState] = useState<'waiting' | 'welcome'>('waiting');
  const error = callbackErrorMessage(params);

  useEffect(() => {
    if (error) {
      const timer = window.setTimeout(() => navigate(paths.login, { replace: true }), ERROR_REDIRECT_MS);
      return () => window.clearTimeout(timer);
    }
    let cancelled = false;
    let timer: number | undefined;
    void (async () => {
      await refreshAuth().catch(() => {});
      const me = await queryClient
        .fetchQuery({ queryKey: authQueryKey, queryFn: fetchAuthCheck, staleTime: 0 })
        .catch(() => null);
      if (cancelled) return;
      if (me?.authenticated) {
        setState('welcome');
        showToast({ color: 'green', message: 'Welcome!' });
        timer = window.setTimeout(() => navigate(paths.dashboard, { replace: true }), WELCOME_REDIRECT_MS);
      } else {
        navigate(paths.login, { replace: true });
      }
    })();
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [error, navigate, queryClient, refreshAuth]);

  if (error) {
    return (
      <AuthLayout title="Authentication Error">
        <Stack gap="md">
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
          <Text size="sm" c="dimmed">
            Taking you back to sign in…
          </Text>
          <Button component={Link} to={paths.login} replace>
            Back to Login
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={state === 'welcome' ? 'Welcome!' : 'Signing you in'}>
      <Stack align="center" gap="md" py="md" role="status">
        {state === 'waiting' && <Loader aria-hidden />}
        <Text>{state === 'welcome' ? 'Welcome! Opening your dashboard…' : 'Completing authentication...'}</Text>
      </Stack>
    </AuthLayout>
  );
}
