import { Badge, Button, Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { adminMessages, type FeatureFlag, PRODUCT_IDS, PRODUCTS, type ProductId } from '@storefront/contract';
import { IconRefresh } from '@tabler/icons-react';
import { FormError } from '../../../components/form-error.tsx';
import { showToast } from '../../../lib/toasts.ts';
import { useAdminFeatures, useSaveFeatures } from '../api/features-api.ts';
import { Reserved } from './reserved.tsx';

const labelOf = (name: string) =>
  (PRODUCT_IDS as readonly string[]).includes(name) ? PRODUCTS[name as ProductId].label : name;

/** The Purchase Toggle card (spec section 2 'Inventory'): one switch per feature, a status badge, a refresh button. */
export function PurchaseToggleCard() {
  const features = useAdminFeatures();
  const save = useSaveFeatures();
  const list = features.data ?? [];

  const toggle = (feature: FeatureFlag, isEnabled: boolean) => {
    const next = list.map((entry) => (entry.featureName === feature.featureName ? { ...entry, isEnabled } : entry));
    save.mutate(next, {
      onError: () =>
        showToast({
          color: 'red',
          title: adminMessages.toggleFailedToast,
          message: adminMessages.toggleFailed,
        }),
    });
  };

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            Purchase Toggle
          </Title>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconRefresh size={14} aria-hidden />}
            loading={features.isFetching}
            onClick={() => void features.refetch()}
          >
            Refresh
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          A product switched off cannot be bought; customers see that it is unavailable.
        </Text>
        <FormError message={features.error?.message ?? null} />
        {/* One row per product (the flags the seed creates), held while the flags load (Refresh shows the spinner). */}
        {features.isPending &&
          PRODUCT_IDS.map((id) => (
            <Reserved key={id}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Switch label={PRODUCTS[id].label} tabIndex={-1} readOnly />
                <Badge variant="light">Enabled</Badge>
              </Group>
            </Reserved>
          ))}
        {list.map((feature) => (
          <Group key={feature.featureName} justify="space-between" wrap="nowrap" gap="sm">
            <Switch
              label={labelOf(feature.featureName)}
              checked={feature.isEnabled}
              disabled={save.isPending}
              onChange={(event) => toggle(feature, event.currentTarget.checked)}
            />
            <Badge color={feature.isEnabled ? 'green' : 'gray'} variant="light">
              {feature.isEnabled ? 'Enabled' : 'Disabled'}
            </Badge>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
