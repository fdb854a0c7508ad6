import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Pagination,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  formatDate,
  formatMoney,
  isProductId,
  ORDER_HISTORY_PAGE_SIZE,
  type OrderHistoryEntry,
  orderHistoryMessages,
  PRODUCTS,
  paths,
  shortId,
} from '@storefront/contract';
import { IconExternalLink, IconReceipt, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { type FirstReads, read } from '../../../lib/first-read.ts';
import { PAGE_HEADINGS } from '../../../lib/page-headings.ts';
import { ordersKeys } from '../../../lib/queries/orders.ts';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { newestFirst, pageWithin, useOrderHistory } from '../api/order-history.ts';
import classes from './order-history.module.css';

const productNames = (ids: string[]) => ids.map((id) => (isProductId(id) ? PRODUCTS[id].label : id)).join(', ');

function InvoiceLink({ entry, absent }: { entry: OrderHistoryEntry; absent: string }) {
  if (!entry.hosted_invoice_url)
    return (
      <Text size="sm" c="dimmed">
        {absent}
      </Text>
    );
  return (
    <Anchor href={entry.hosted_invoice_url} target="_blank" rel="noopener noreferrer" size="sm">
      <Group gap={4} wrap="nowrap" component="span">
        View invoice <IconExternalLink size={14} aria-hidden />
      </Group>
    </Anchor>
  );
}

function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={historyStatusColor(status)} variant="light">
      {status}
    </Badge>
  );
}

/** Spec section 4 'Order history status badge colours'. */
export function historyStatusColor(status: string): 'green' | 'yellow' | 'red' | 'orange' | 'gray' {
  const value = status.toLowerCase();
  if (value === 'paid' || value === 'succeeded') return 'green';
  if (value === 'processing') return 'yellow';
  if (value === 'canceled' || value === 'cancelled') return 'red';
  if (value === 'refunded') return 'orange';
  return 'gray';
}
/** What the server reads to draw this page for its reader (the same key as its hook). */
export const firstReads: FirstReads = () => [read('listOrderHistory', ordersKeys.history())];

/** /dashboard/order-history (spec section 2 'Order history'): every payment with its invoice, 10 a page. */
export function OrderHistoryPage() {
  usePageTitle('Order History');
  const history = useOrderHistory();
  const timeZone = useTimeZone();
  const [page, setPage] = useState(1);
  const entries = newestFirst(history.data ?? []);
  const pages = Math.max(1, Math.ceil(entries.length / ORDER_HISTORY_PAGE_SIZE));
  const current = pageWithin(page, entries.length, ORDER_HISTORY_PAGE_SIZE);
  const shown = entries.slice((current - 1) * ORDER_HISTORY_PAGE_SIZE, current * ORDER_HISTORY_PAGE_SIZE);

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {PAGE_HEADINGS[paths.orderHistory].title}
        </Title>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={() => void history.refetch()}
          loading={history.isFetching && !history.isPending}
        >
          Refresh
        </Button>
      </Group>

      {history.isPending ? (
        <Center py="xl">
          <Group gap="sm">
            <Loader size="sm" />
            <Text c="dimmed">Loading order history...</Text>
          </Group>
        </Center>
      ) : history.isError ? (
        <Alert color="red" variant="light" role="alert" title={orderHistoryMessages.loadFailed}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{history.error.message}</Text>
            <Button size="compact-sm" color="red" variant="light" onClick={() => void history.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : entries.length === 0 ? (
        <Card withBorder padding="xl">
          <Stack align="center" gap="xs" py="md">
            <IconReceipt size={40} stroke={1.5} aria-hidden color="var(--mantine-color-dimmed)" />
            <Title order={2} size="h4">
              {orderHistoryMessages.emptyTitle}
            </Title>
            <Text c="dimmed" ta="center" size="sm">
              {orderHistoryMessages.emptyText}
            </Text>
            <Button component={Link} to={paths.purchase} mt="sm">
              Purchase Proxies
            </Button>
          </Stack>
        </Card>
      ) : (
        <>
          <Stack gap="sm" className={classes.cards}>
            {shown.map((entry) => (
              <Card key={entry.stripe_id} withBorder padding="md" data-testid="order-history-card">
                <Group justify="space-between" mb={6}>
                  <Text fw={700} ff="monospace">
                    #{shortId(entry.order_id, 8)}
                  </Text>
                  <StatusBadge status={entry.status} />
                </Group>
                <Text size="sm">{productNames(entry.product_ids)}</Text>
                <Text size="sm" c="dimmed">
                  {formatDate(entry.purchased_at, 'date-time', timeZone)}
                </Text>
                <Group justify="space-between" mt={6}>
                  <Text fw={700}>{formatMoney(entry.total, entry.currency)}</Text>
                  <InvoiceLink entry={entry} absent="No invoice" />
                </Group>
                <Text size="xs" c="dimmed" ff="monospace" mt={4}>
                  Ref {shortId(entry.stripe_id, 12)}
                </Text>
              </Card>
            ))}
          </Stack>
          <Card withBorder padding={0} className={classes.table}>
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Order</Table.Th>
                    <Table.Th>Payment reference</Table.Th>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Products</Table.Th>
                    <Table.Th ta="right">Total</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Invoice</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((entry) => (
                    <Table.Tr key={entry.stripe_id}>
                      <Table.Td ff="monospace">#{shortId(entry.order_id, 8)}</Table.Td>
                      <Table.Td ff="monospace">{shortId(entry.stripe_id, 12)}</Table.Td>
                      <Table.Td>{formatDate(entry.purchased_at, 'date-time', timeZone)}</Table.Td>
                      <Table.Td>{productNames(entry.product_ids)}</Table.Td>
                      <Table.Td ta="right" fw={600}>
                        {formatMoney(entry.total, entry.currency)}
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={entry.status} />
                      </Table.Td>
                      <Table.Td>
                        <InvoiceLink entry={entry} absent="-" />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
          {pages > 1 && (
            <Group justify="center">
              <Pagination total={pages} value={current} onChange={setPage} withEdges aria-label="Order history pages" />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
