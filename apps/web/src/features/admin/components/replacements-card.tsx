import { Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { formatDate, type IpPool, REPLACEMENT_REASON_LABELS, REPLACEMENT_REASONS } from '@storefront/contract';
import { FormError } from '../../../components/form-error.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { poolName, useReplacementStats } from '../api/inventory-api.ts';
import { PositionPager, usePositions } from './position-pager.tsx';
import { Figure } from './residential-inventory-card.tsx';

/**
 * Beside a pool's subnets: the IPs customers replaced themselves, by reason, and by subnet since its last swap, the
 * subnet most customers flagged as blocked by a target first (the one to swap).
 */
export function ReplacementsCard({ pool }: { pool: IpPool }) {
  const positions = usePositions();
  const stats = useReplacementStats(pool, positions.current);
  const timeZone = useTimeZone();
  const data = stats.data;
  const figure = (value: number | undefined) => value?.toLocaleString('en-US') ?? '—';
  return (
    <Card withBorder padding="lg" data-testid="replacements-card">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {poolName(pool)} replacements
        </Title>
        <Text size="sm" c="dimmed">
          IPs customers replaced themselves. The subnets most customers flag as blocked by a target come first: swap
          them.
        </Text>
        <SimpleGrid cols={{ base: 2, xs: 3, md: 6 }} spacing="xs">
          <Figure label="Replaced" value={figure(data?.total)} />
          {REPLACEMENT_REASONS.map((reason) => (
            <Figure key={reason} label={REPLACEMENT_REASON_LABELS[reason]} value={figure(data?.byReason[reason])} />
          ))}
          <Figure label="Waiting for stock" value={figure(data?.waiting)} />
        </SimpleGrid>
        <FormError message={stats.error?.message ?? null} />
        {data && data.subnets.length === 0 && (
          <Text size="sm" c="dimmed">
            No replacements since the subnets were last swapped.
          </Text>
        )}
        {data && data.subnets.length > 0 && (
          <>
            <Table striped withTableBorder fz="sm" aria-label={`${poolName(pool)} replacements by subnet`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Subnet</Table.Th>
                  <Table.Th>Customers flagging it blocked</Table.Th>
                  <Table.Th>Replaced</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.subnets.map((row) => (
                  <Table.Tr key={row.subnet}>
                    <Table.Td ff="monospace">{row.subnet}</Table.Td>
                    <Table.Td>{row.blockedCustomers}</Table.Td>
                    <Table.Td>
                      {row.total}
                      <Text size="xs" c="dimmed">
                        {REPLACEMENT_REASONS.filter((reason) => row.byReason[reason] > 0)
                          .map((reason) => `${row.byReason[reason]} ${REPLACEMENT_REASON_LABELS[reason].toLowerCase()}`)
                          .join(' · ')}
                        {' · last '}
                        {formatDate(row.lastAt, 'date', timeZone)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <PositionPager
              positions={positions}
              next={data.next}
              waiting={stats.isPlaceholderData}
              labels={{ back: 'Previous subnets', forward: 'More subnets', last: 'the last' }}
            />
          </>
        )}
      </Stack>
    </Card>
  );
}
