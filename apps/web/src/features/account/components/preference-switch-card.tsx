import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import type { Preferences } from '@storefront/contract';
import { FormError } from '../../../components/form-error.tsx';
import { usePreferences, useSavePreferences } from '../api/gateway-settings-api.ts';

/** One of the customer's switches on Settings (on by default), saved as it is switched. */
export function PreferenceSwitchCard({
  title,
  label,
  description,
  preference,
}: {
  title: string;
  label: string;
  description: string;
  preference: keyof Preferences;
}) {
  const preferences = usePreferences();
  const save = useSavePreferences();
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {preferences.isError ? (
          <FormError message={preferences.error.message} />
        ) : (
          <Switch
            label={label}
            description={description}
            checked={preferences.data?.[preference] ?? true}
            disabled={!preferences.isSuccess || save.isPending}
            onChange={(event) => save.mutate({ [preference]: event.currentTarget.checked })}
          />
        )}
        <FormError message={save.error?.message ?? null} onClose={() => save.reset()} />
        {save.isSuccess && (
          <Text size="xs" c="dimmed" role="status">
            Saved.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
