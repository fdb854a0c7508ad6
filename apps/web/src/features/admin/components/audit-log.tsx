import { Badge, Group, Loader, Pagination, Stack, Table, Text } from '@mantine/core';
import { formatDate } from '@storefront/contract';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { useAuditLog } from '../api/audit-api.ts';

/** Every administrator change, newest first: who, when, what and its figures. */
export function AuditLogView() {
  const timeZone = useTimeZone();
  const [page, setPage] = useState(1);
  const log = useAuditLog(page);
  const data = log.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Every change made on this page is recorded with who made it and its figures; so are the alerts the shop opens
        and resolves by itself.
      </Text>
      {log.isPending && <Loader size="sm" aria-label="Loading the audit log" />}
      <FormError message={log.error?.message ?? null} />
      {data && data.entries.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          No changes recorded yet.
        </Text>
      )}
      {data && data.entries.length > 0 && (
        // On a phone the table scrolls sideways: the scroll area takes the focus, so the arrow keys scroll it too.
        <Table.ScrollContainer
          minWidth={560}
          scrollAreaProps={{
            type: 'auto',
            viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Audit log entries' },
          }}
        >
          <Table striped withTableBorder verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(entry.at, 'date-time', timeZone)}</Table.Td>
                  <Table.Td>{entry.actorEmail}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap" align="flex-start">
                      <Badge variant="light" style={{ flexShrink: 0 }}>
                        {entry.action}
                      </Badge>
                      <Text size="sm">{entry.summary}</Text>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && <Pagination value={page} onChange={setPage} total={pages} size="sm" />}
    </Stack>
  );
}
