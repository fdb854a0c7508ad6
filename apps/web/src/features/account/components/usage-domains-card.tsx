import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { FormError } from '../../../components/form-error.tsx';
import { usePreferences, useSavePreferences } from '../api/gateway-settings-api.ts';

/** Whether the gateway records the domains the customer's traffic reaches in their usage statistics: on unless off here. */
export function UsageDomainsCard() {
  const preferences = usePreferences();
  const save = useSavePreferences();
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Usage statistics
        </Title>
        {preferences.isError ? (
          <FormError message={preferences.error.message} />
        ) : (
          <Switch
            label="Record the domains I reach"
            description="Residential data used is counted by the site's domain, such as example.com: never a page, a full address or a query. Off: new use is counted without domains."
            checked={preferences.data?.recordDomains ?? true}
            disabled={!preferences.isSuccess || save.isPending}
            onChange={(event) => save.mutate({ recordDomains: event.currentTarget.checked })}
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
