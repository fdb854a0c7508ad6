import '../../../styles/app-mantine.ts';
import { Alert, Anchor, Badge, Button, Card, Center, Divider, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { formatMoney, paths, sandboxMessages } from '@storefront/contract';
import { IconAlertTriangle, IconCreditCard } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSandboxCheckout, useSandboxPay } from '../api/sandbox-api.ts';
import { inAppPath } from '../in-app-path.ts';
import { SandboxFrame } from './sandbox-frame.tsx';

function Line({ label, value, strong }: { label: string; value: ReactNode; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" c={strong ? undefined : 'dimmed'} fw={strong ? 700 : undefined}>
        {label}
      </Text>
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 800 : 500} ta="right">
        {value}
      </Text>
    </Group>
  );
}

/** The sandbox provider's hosted payment page (/sandbox/checkout/:id): clearly a test, where no real money moves. */
export function SandboxCheckoutPage() {
  usePageTitle('Sandbox payment');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const checkout = useSandboxCheckout(id);
  const pay = useSandboxPay(id);

  const choose = (card: 'ok' | 'declined') =>
    pay.mutate(card, {
      onSuccess: (result) => {
        if (result.status !== 'paid' || !result.redirectUrl) return;
        const path = inAppPath(result.redirectUrl);
        if (path) void navigate(path);
        else window.location.assign(result.redirectUrl);
      },
    });

  const data = checkout.data;
  const declined = pay.data?.status === 'declined' || (data?.status === 'declined' && !pay.data);

  return (
    <SandboxFrame width={480}>
      <Card withBorder padding="xl" radius="md">
        {checkout.isPending ? (
          <Center py="xl">
            <Loader />
          </Center>
        ) : checkout.isError ? (
          <Stack>
            <Title order={1} size="h3">
              Checkout unavailable
            </Title>
            <Text>{checkout.error.message}</Text>
            {checkout.error instanceof ApiError && checkout.error.status === 401 ? (
              <Button component={Link} to={paths.login}>
                Sign in
              </Button>
            ) : (
              <Anchor component={Link} to={paths.purchase}>
                Back to Purchase
              </Anchor>
            )}
          </Stack>
        ) : data ? (
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={1} size="h3">
                Pay {formatMoney(data.totalCents, data.currency)}
              </Title>
              <Badge variant="light" color="yellow">
                Sandbox
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {data.customerEmail}
            </Text>
            <Divider my={4} />
            <Line label="Product" value={data.productLabel} />
            <Line label="Quantity" value={data.quantity.toLocaleString('en-US')} />
            <Line label="Unit price" value={`${formatMoney(data.unitPriceCents, data.currency)} ${data.unitLabel}`} />
            <Line label="Subtotal" value={formatMoney(data.subtotalCents, data.currency)} />
            <Line
              label={data.couponCode ? `Discount (${data.couponCode})` : 'Discount'}
              value={
                data.discountCents > 0
                  ? `−${formatMoney(data.discountCents, data.currency)}`
                  : formatMoney(0, data.currency)
              }
            />
            <Divider my={4} />
            <Line
              label={data.recurring ? 'Total due today' : 'Total'}
              value={formatMoney(data.totalCents, data.currency)}
              strong
            />
            {data.recurring && (
              <Text size="xs" c="dimmed">
                Renews monthly at {formatMoney(data.subtotalCents, data.currency)} unless cancelled.
              </Text>
            )}

            {data.status === 'paid' ? (
              <Alert color="green" variant="light" mt="sm">
                This checkout is paid.{' '}
                <Anchor component={Link} to={inAppPath(data.successUrl) ?? paths.proxies}>
                  Go to your proxies
                </Anchor>
              </Alert>
            ) : (
              <>
                {declined && (
                  <Alert
                    color="red"
                    variant="light"
                    role="alert"
                    icon={<IconAlertTriangle size={18} aria-hidden />}
                    mt="sm"
                  >
                    {sandboxMessages.declined}
                  </Alert>
                )}
                {pay.isError && (
                  <Alert color="red" variant="light" role="alert" mt="sm">
                    {pay.error.message}
                  </Alert>
                )}
                <Button
                  mt="sm"
                  size="md"
                  leftSection={<IconCreditCard size={18} aria-hidden />}
                  loading={pay.isPending && pay.variables === 'ok'}
                  disabled={pay.isPending}
                  onClick={() => choose('ok')}
                >
                  Pay with test card
                </Button>
                <Button
                  variant="default"
                  color="red"
                  loading={pay.isPending && pay.variables === 'declined'}
                  disabled={pay.isPending}
                  onClick={() => choose('declined')}
                >
                  Simulate declined card
                </Button>
                <Anchor component={Link} to={inAppPath(data.cancelUrl) ?? paths.purchase} size="sm" ta="center">
                  Cancel and return to the shop
                </Anchor>
              </>
            )}
          </Stack>
        ) : null}
      </Card>
    </SandboxFrame>
  );
}
