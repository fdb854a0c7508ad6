import '../../../styles/app-mantine.ts';
import { Alert, Anchor, Badge, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { formatDate, paths, shortId } from '@storefront/contract';
import { IconCreditCard } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSandboxBilling, useUpdateSandboxCard } from '../api/sandbox-api.ts';
import { SandboxFrame } from './sandbox-frame.tsx';

/** /sandbox/billing/:id: the test card a sandbox subscription renews with; a working card pays a failed renewal at once. */
export function SandboxBillingPage() {
  usePageTitle('Sandbox billing');
  const { id = '' } = useParams();
  const billing = useSandboxBilling(id);
  const update = useUpdateSandboxCard(id);
  const data = billing.data;

  return (
    <SandboxFrame width={520}>
      <Card withBorder padding="xl">
        {billing.isPending ? (
          <Center py="xl">
            <Loader />
          </Center>
        ) : billing.isError ? (
          <Stack>
            <Text>{billing.error.message}</Text>
            <Anchor component={Link} to={paths.proxies}>
              Back to your proxies
            </Anchor>
          </Stack>
        ) : data ? (
          <Stack gap="sm">
            <Title order={1} size="h3">
              Payment method
            </Title>
            <Text size="sm" c="dimmed">
              Order #{shortId(data.orderId, 8)} · {data.productLabel} · {data.quantity} IPs
            </Text>
            <Group gap="xs">
              <Text size="sm">Card on file:</Text>
              <Badge color={data.card === 'ok' ? 'green' : 'red'} variant="light">
                {data.card === 'ok' ? 'Test card (works)' : 'Declining test card'}
              </Badge>
            </Group>
            {data.paymentFailed && (
              <Alert color="red" variant="light" role="alert" title="Payment failed">
                The last renewal failed.
                {data.graceEndsAt &&
                  ` Your proxies keep working until ${formatDate(data.graceEndsAt, 'long-date-time')}.`}{' '}
                Use the test card to pay now.
              </Alert>
            )}
            {data.status === 'expired' && (
              <Alert color="gray" variant="light">
                This order has expired; a new card no longer renews it.
              </Alert>
            )}
            {!data.paymentFailed && data.expiresAt && data.status !== 'expired' && (
              <Text size="sm">Next renewal: {formatDate(data.expiresAt, 'long-date-time')}</Text>
            )}
            {update.isError && (
              <Alert color="red" variant="light" role="alert">
                {update.error.message}
              </Alert>
            )}
            <Group mt="sm">
              <Button
                leftSection={<IconCreditCard size={16} aria-hidden />}
                loading={update.isPending && update.variables === 'ok'}
                disabled={update.isPending || data.status === 'expired'}
                onClick={() => update.mutate('ok')}
              >
                Use the test card
              </Button>
              <Button
                variant="default"
                loading={update.isPending && update.variables === 'declined'}
                disabled={update.isPending || data.status === 'expired'}
                onClick={() => update.mutate('declined')}
              >
                Use a declining card
              </Button>
            </Group>
            <Anchor component={Link} to={paths.proxies} size="sm">
              Back to your proxies
            </Anchor>
          </Stack>
        ) : null}
      </Card>
    </SandboxFrame>
  );
}
