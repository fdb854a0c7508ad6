import {
  Badge,
  Button,
  Card,
  Collapse,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { isNotEmpty, useForm } from '@mantine/form';
import {
  CUSTOMER_MATCHES_MAX,
  type CustomerMatches,
  type CustomOrder,
  customOrderMessages,
  formatDate,
  parseFulfilLines,
} from '@storefront/contract';
import { IconChevronDown, IconRefresh, IconSearch, IconX } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { LazyModal } from '../../../components/lazy-dialog.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { showToast } from '../../../lib/toasts.ts';
import { withSchemas } from '../../../lib/zod-without-eval.ts';
import {
  useCreateCustomOrder,
  useFindCustomers,
  useFulfilCustomOrder,
  useUserLookup,
} from '../api/custom-orders-api.ts';

// Split off with the contract's schema it checks against: loaded with this tab, not with the console.
const CustomOrderForm = lazy(async () => ({
  default: (await withSchemas(() => import('./custom-order-form.tsx'))).CustomOrderForm,
}));

const STATUS_COLOR: Record<string, string> = { fulfilled: 'green', paid: 'blue', processing: 'yellow' };
const STATUS_LABEL: Record<CustomOrder['status'], string> = {
  awaiting_payment: 'awaiting payment',
  processing: 'processing',
  paid: 'paid',
  fulfilled: 'fulfilled',
  expired: 'expired',
};

/** The Fulfill dialog: exactly the order's quantity of proxies, ip:port or ip:port:username:password per line. */
function FulfilDialog({ userId, order, onClose }: { userId: string; order: CustomOrder | null; onClose: () => void }) {
  const fulfil = useFulfilCustomOrder();
  const form = useForm({
    initialValues: { proxies: '' },
    // A problem stays said until Fulfill is pressed again.
    clearInputErrorOnChange: false,
    validate: {
      proxies: (text) => {
        if (!order || !userId) return customOrderMessages.missingOrderOrUser;
        const parsed = parseFulfilLines(text.split('\n'), order.quantity);
        return 'error' in parsed ? parsed.error : null;
      },
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(({ proxies }) => {
    if (!order) return;
    const lines = proxies.split('\n').filter((line) => line.trim() !== '');
    fulfil.mutate(
      { userId, orderId: order.orderId, ips: lines },
      {
        onSuccess: () => {
          showToast({
            color: 'green',
            title: 'Order fulfilled',
            message: `${order.quantity} proxies delivered to the customer.`,
          });
          close();
        },
        onError: (error) =>
          showToast({ color: 'red', title: customOrderMessages.uploadFailedToast, message: error.message }),
      },
    );
  });
  return (
    <LazyModal opened={order !== null} onClose={close} title="Fulfill custom order" size="lg">
      {order && (
        <Stack gap="sm">
          <Text size="sm">
            Paste exactly {order.quantity} proxies, one per line: ip:port:username:password or ip:port. They are
            delivered to the customer at once.
          </Text>
          <Textarea
            label="Proxies"
            {...form.getInputProps('proxies')}
            autosize
            minRows={6}
            maxRows={14}
            data-autofocus
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => submit()} loading={fulfil.isPending}>
              Fulfill
            </Button>
          </Group>
        </Stack>
      )}
    </LazyModal>
  );
}

/** One customer's form and the payment link made for them: both start afresh with another customer. */
function CustomOrderSection({ userId }: { userId: string | null }) {
  const create = useCreateCustomOrder();
  return <CustomOrderForm userId={userId} create={create} />;
}

/**
 * The collapsible Create Custom Order form: PK1 ISP is the only type, 1 to 1000 IPs, an optional coupon. Its fields, its
 * messages and the payment link it made belong to one customer: they start afresh whenever the customer found changes
 * (another search, or Clear All), while the card stays open or closed as it was.
 */
function CreateCustomOrder({ userId }: { userId: string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder padding="lg">
      <Button
        variant="subtle"
        onClick={() => setOpen((value) => !value)}
        rightSection={
          <IconChevronDown size={16} aria-hidden style={{ transform: open ? 'rotate(180deg)' : undefined }} />
        }
        aria-expanded={open}
        px={0}
      >
        Create Custom Order
      </Button>
      <Collapse expanded={open}>
        <Suspense fallback={<Loader size="sm" aria-label="Loading the custom order form" />}>
          <CustomOrderSection key={userId ?? 'nobody'} userId={userId} />
        </Suspense>
      </Collapse>
    </Card>
  );
}

/** Several customers matched the search: the administrator picks one (its custom orders are then looked up). */
function CustomerChoices({ choices, onChoose }: { choices: CustomerMatches; onChoose: (email: string) => void }) {
  const timeZone = useTimeZone();
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs">
        <Text fw={600} id="customer-choices">
          {choices.matches.length} customers match
        </Text>
        <Stack gap={4} role="list" aria-labelledby="customer-choices">
          {choices.matches.map((match) => (
            <Group key={match.id} justify="space-between" wrap="nowrap" gap="sm" role="listitem">
              <div style={{ minWidth: 0 }}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {match.email}
                </Text>
                <Text size="xs" c="dimmed">
                  {match.name} · since {formatDate(match.createdAt, 'date', timeZone)}
                </Text>
              </div>
              <Button
                size="xs"
                variant="default"
                onClick={() => onChoose(match.email)}
                aria-label={`Choose ${match.email}`}
              >
                Choose
              </Button>
            </Group>
          ))}
        </Stack>
        {choices.more && (
          <Text size="xs" c="dimmed">
            More than {CUSTOMER_MATCHES_MAX} match: type more of the e-mail or the name.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** The Custom Ordering tab (spec section 2): find a customer, their custom orders, fulfil, create. */
export function CustomOrdering() {
  const timeZone = useTimeZone();
  const [email, setEmail] = useState<string | null>(null);
  const [fulfilling, setFulfilling] = useState<CustomOrder | null>(null);
  const lookup = useUserLookup(email);
  const found = lookup.data;
  const searchForm = useForm({
    initialValues: { email: '' },
    // 'Please enter an email address' stays said until the next search.
    clearInputErrorOnChange: false,
    validate: { email: isNotEmpty(customOrderMessages.enterEmail) },
    transformValues: (values) => values.email.trim(),
  });

  const find = useFindCustomers();
  const [choices, setChoices] = useState<CustomerMatches | null>(null);
  const choose = (chosen: string) => {
    setChoices(null);
    setEmail(chosen);
    if (chosen === email) void lookup.refetch();
  };
  const search = searchForm.onSubmit((value) =>
    find.mutate(value, {
      onSuccess: (answer) => {
        const [first] = answer.matches;
        // The e-mail itself, or the only match: that customer at once; several: the administrator chooses.
        if (first && (first.email === value.toLowerCase() || answer.matches.length === 1)) return choose(first.email);
        setEmail(null);
        setChoices(answer);
      },
    }),
  );
  // Spec section 10: an unknown e-mail also shows the toast 'User Not Found'.
  const notFoundAt =
    lookup.isError && lookup.error.message === customOrderMessages.userNotFound ? lookup.errorUpdatedAt : 0;
  const noMatchAt = choices?.matches.length === 0 ? find.submittedAt : 0;
  useEffect(() => {
    if (notFoundAt > 0 || noMatchAt > 0) {
      showToast({
        color: 'red',
        title: customOrderMessages.userNotFoundToast,
        message: customOrderMessages.userNotFound,
      });
    }
  }, [notFoundAt, noMatchAt]);

  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <form onSubmit={search}>
          <Stack gap="sm">
            <Title order={2} size="h4">
              Find a customer
            </Title>
            <Group align="flex-start" gap="sm">
              <TextInput
                label="Customer e-mail"
                description="Or the start of an e-mail or a name, a user id or an order id"
                // Under the field, so the buttons beside it stay level with it.
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                placeholder="customer@example.com"
                {...searchForm.getInputProps('email')}
                style={{ flex: '1 1 14rem' }}
              />
              <Group gap="xs" mt={{ base: 0, xs: 25 }}>
                <Button
                  type="submit"
                  leftSection={<IconSearch size={16} aria-hidden />}
                  loading={find.isPending || lookup.isFetching}
                >
                  Search
                </Button>
                <Button
                  variant="default"
                  leftSection={<IconX size={16} aria-hidden />}
                  onClick={() => {
                    searchForm.reset();
                    setEmail(null);
                    setChoices(null);
                    find.reset();
                  }}
                >
                  Clear All
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      </Card>
      <FormError
        message={
          find.error?.message ??
          (choices?.matches.length === 0 ? customOrderMessages.userNotFound : (lookup.error?.message ?? null))
        }
      />
      {choices && choices.matches.length > 0 && <CustomerChoices choices={choices} onChoose={choose} />}
      {found && (
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Group justify="space-between" gap="xs">
              <div>
                <Text fw={600}>{found.user.email}</Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {found.user.id}
                </Text>
                <Text size="xs" c="dimmed">
                  Customer since {formatDate(found.user.createdAt, 'date', timeZone)}
                </Text>
              </div>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconRefresh size={14} aria-hidden />}
                loading={lookup.isFetching}
                onClick={() =>
                  void lookup.refetch().then((result) => {
                    if (result.isError)
                      showToast({ color: 'red', title: 'Error', message: customOrderMessages.refreshFailed });
                  })
                }
              >
                Refresh
              </Button>
            </Group>
            {found.customOrders.length === 0 ? (
              <Text c="dimmed" size="sm">
                No custom orders for this customer yet.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={600}>
                <Table striped withTableBorder>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Order</Table.Th>
                      <Table.Th>Quantity</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Payment</Table.Th>
                      <Table.Th>Created</Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {found.customOrders.map((order) => (
                      <Table.Tr key={order.orderId}>
                        <Table.Td ff="monospace" fz="xs">
                          {order.orderId.slice(0, 8)}
                        </Table.Td>
                        <Table.Td>{order.quantity} PK1</Table.Td>
                        <Table.Td>
                          <Badge color={STATUS_COLOR[order.status] ?? 'gray'} variant="light">
                            {STATUS_LABEL[order.status]}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <Badge color={order.isPaid ? 'green' : 'gray'} variant="outline">
                            {order.isPaid ? 'Paid' : 'Unpaid'}
                          </Badge>
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>
                          {formatDate(order.createdAt, 'date-time', timeZone)}
                        </Table.Td>
                        <Table.Td>
                          <Group gap={6} wrap="nowrap" justify="flex-end">
                            {order.checkoutLink && (
                              <CopyButton value={order.checkoutLink}>
                                {({ copied, copy }) => (
                                  <Button size="xs" variant="default" onClick={copy}>
                                    {copied ? 'Copied' : 'Copy link'}
                                  </Button>
                                )}
                              </CopyButton>
                            )}
                            {(order.status === 'paid' || order.status === 'processing') && (
                              <Button size="xs" onClick={() => setFulfilling(order)}>
                                Fulfill
                              </Button>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        </Card>
      )}
      {lookup.isFetching && !found && <Loader size="sm" aria-label="Looking up the customer" />}
      <CreateCustomOrder userId={found?.user.id ?? null} />
      <FulfilDialog userId={found?.user.id ?? ''} order={fulfilling} onClose={() => setFulfilling(null)} />
    </Stack>
  );
}
