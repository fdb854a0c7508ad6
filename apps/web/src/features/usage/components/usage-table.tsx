import { Card, Group, Table, Text, Title } from '@mantine/core';
import type { UsageReport } from '@storefront/contract';
import { formatCount, formatData, rowsOf, type UsageTableName } from '../usage-model.ts';
import { CsvButton } from './csv-button.tsx';

/** One of the report's tables (by proxy user, country or domain), with its CSV. */
export function UsageTable({
  report,
  table,
  title,
  column,
  timeZone,
}: {
  report: UsageReport;
  table: UsageTableName;
  title: string;
  column: string;
  timeZone: string | undefined;
}) {
  const rows = rowsOf(report, table, timeZone);
  const id = `usage-${table}-title`;
  return (
    <Card withBorder padding="md" data-testid={`usage-table-${table}`}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        <CsvButton report={report} table={table} label={title} timeZone={timeZone} />
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing in this range.
        </Text>
      ) : (
        <Table aria-labelledby={id} verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{column}</Table.Th>
              <Table.Th scope="col" ta="right">
                Data used
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Connections
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.label}>
                <Table.Td style={{ wordBreak: 'break-word' }}>{row.label}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatData(row.bytes)}
                </Table.Td>
                <Table.Td ta="right">{formatCount(row.connections)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
