import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { FormError } from '../../../components/form-error.tsx';
import { usePreferences, useSavePreferences } from '../api/gateway-settings-api.ts';

/** The usage e-mails at 80 % and 100 % of residential data: on unless turned off here. */
export function UsageEmailsCard() {
  const preferences = usePreferences();
  const save = useSavePreferences();
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          E-mails
        </Title>
        {preferences.isError ? (
          <FormError message={preferences.error.message} />
        ) : (
          <Switch
            label="Residential data usage"
            description="An e-mail when 80 % and when all of your residential data is used, with a link to buy more."
            checked={preferences.data?.usageEmails ?? true}
            disabled={!preferences.isSuccess || save.isPending}
            onChange={(event) => save.mutate({ usageEmails: event.currentTarget.checked })}
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
