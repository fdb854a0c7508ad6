import { Button, Divider, Stack, Text } from '@mantine/core';
import { authMessages, paths, plural } from '@storefront/contract';
import { IconBrandDiscord, IconBrandGoogle } from '@tabler/icons-react';
import { useState } from 'react';
import { site } from '../../../config/site.ts';
import { loadAuthClient } from '../../../lib/load-auth-client.ts';

const PROVIDERS = [
  { id: 'google', label: 'Google', Icon: IconBrandGoogle },
  { id: 'discord', label: 'Discord', Icon: IconBrandDiscord },
] as const;

/**
 * Both social sign-ins, always shown (spec: a web-search company account and a chat-community account). One that the
 * operator has not configured is disabled and says so, instead of failing after a click.
 */
export function SocialButtons({ onError }: { onError: (message: string) => void }) {
  const [pending, setPending] = useState<string | null>(null);

  const start = async (provider: (typeof PROVIDERS)[number]['id']) => {
    setPending(provider);
    const origin = window.location.origin;
    // Both sign-in screens share these buttons; the screens themselves load the client, so this is at once.
    const authClient = await loadAuthClient().catch(() => null);
    if (!authClient) {
      setPending(null);
      return onError(authMessages.authClientUnavailable);
    }
    const { error } = await authClient.signIn.social({
      provider,
      callbackURL: `${origin}${paths.dashboard}`,
      newUserCallbackURL: `${origin}${paths.dashboard}`,
      errorCallbackURL: `${origin}${paths.authCallback}`,
    });
    // On success the browser is already on its way to the provider.
    if (error) {
      setPending(null);
      onError(error.message || authMessages.oauthFailed);
    }
  };

  const unavailable = PROVIDERS.filter((provider) => !site.socialSignIn[provider.id]);
  return (
    <Stack gap="sm">
      <Divider label="or continue with" labelPosition="center" />
      {PROVIDERS.map(({ id, label, Icon }) => (
        <Button
          key={id}
          variant="default"
          leftSection={<Icon size={18} aria-hidden />}
          loading={pending === id}
          disabled={!site.socialSignIn[id] || (pending !== null && pending !== id)}
          aria-describedby={site.socialSignIn[id] ? undefined : 'social-unavailable'}
          onClick={() => void start(id)}
        >
          Continue with {label}
        </Button>
      ))}
      {unavailable.length > 0 && (
        <Text id="social-unavailable" size="xs" c="dimmed" ta="center">
          {unavailable.map((provider) => provider.label).join(' and ')} sign-in{' '}
          {plural(unavailable.length, 'is', 'are')} not available on this store yet. Use your e-mail and password.
        </Text>
      )}
    </Stack>
  );
}
