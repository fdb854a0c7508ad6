import '../../../styles/app-mantine.ts';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Container,
  Divider,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { formatDate, formatMoney, sandboxMessages } from '@storefront/contract';
import { IconPrinter } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { site } from '../../../config/site.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSandboxInvoice } from '../api/sandbox-api.ts';
import classes from './sandbox.module.css';

/** A sandbox invoice (/sandbox/invoices/:id): a printable page, as a provider's hosted invoice is. */
export function SandboxInvoicePage() {
  const { id = '' } = useParams();
  const invoice = useSandboxInvoice(id);
  usePageTitle(invoice.data ? `Invoice ${invoice.data.number}` : 'Invoice');

  if (invoice.isPending) {
    return (
      <Center component="main" mih="60vh">
        <Loader />
      </Center>
    );
  }
  if (invoice.isError) {
    return (
      <Container component="main" size={560} py={40}>
        <Alert color="red" variant="light" title="Invoice unavailable">
          {invoice.error.message}
        </Alert>
      </Container>
    );
  }
  const data = invoice.data;
  return (
    <Container component="main" size={720} py={40} className={classes.invoice}>
      <Group justify="flex-end" mb="md" className={classes.noPrint}>
        <Button leftSection={<IconPrinter size={16} aria-hidden />} variant="default" onClick={() => window.print()}>
          Print
        </Button>
      </Group>
      <Card withBorder padding="xl">
        <Stack gap="lg">
          <div>
            <Text fw={800}>{site.brandName}</Text>
            <Group gap="sm" mt={4}>
              <Title order={1} size="h2">
                Invoice
              </Title>
              <Badge color="green" variant="light" size="lg">
                {data.status}
              </Badge>
            </Group>
            <Text c="dimmed" ff="monospace">
              {data.number}
            </Text>
          </div>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <div>
              <Text size="sm" c="dimmed">
                Billed to
              </Text>
              <Text style={{ overflowWrap: 'anywhere' }}>{data.customerEmail}</Text>
            </div>
            <div>
              <Text size="sm" c="dimmed">
                Date paid
              </Text>
              <Text>{formatDate(data.paidAt, 'long-date')}</Text>
            </div>
          </SimpleGrid>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Description</Table.Th>
                <Table.Th ta="right">Qty</Table.Th>
                <Table.Th ta="right">Unit price</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>{data.description}</Table.Td>
                <Table.Td ta="right">{data.quantity}</Table.Td>
                <Table.Td ta="right">{formatMoney(data.unitPriceCents, data.currency)}</Table.Td>
                <Table.Td ta="right">{formatMoney(data.subtotalCents, data.currency)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Stack gap={4} ml="auto" miw={240}>
            <Group justify="space-between">
              <Text size="sm">Subtotal</Text>
              <Text size="sm">{formatMoney(data.subtotalCents, data.currency)}</Text>
            </Group>
            <Group justify="space-between">
              <Text size="sm">Discount</Text>
              <Text size="sm">−{formatMoney(data.discountCents, data.currency)}</Text>
            </Group>
            <Divider />
            <Group justify="space-between">
              <Text fw={700}>Amount paid</Text>
              <Text fw={800}>{formatMoney(data.totalCents, data.currency)}</Text>
            </Group>
          </Stack>
          <Text size="xs" c="dimmed">
            Order {data.orderId}. {sandboxMessages.notice}
          </Text>
        </Stack>
      </Card>
    </Container>
  );
}
