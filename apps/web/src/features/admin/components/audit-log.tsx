import { Badge, Group, Loader, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AUDIT_ACTIONS, type AuditAction, type AuditLogQuery, formatDate } from '@storefront/contract';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { LIST_IN_MAIN } from '../../../components/list-in-main.ts';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { useAuditLog } from '../api/audit-api.ts';
import { FilterButtons } from './filter-buttons.tsx';
import { PositionPager, usePositions } from './position-pager.tsx';

const NO_FILTERS = { action: null as string | null, actor: '', from: '', to: '' };
type Filters = typeof NO_FILTERS;

/** The query the filters ask for: only what is set, the days read in the administrator's time zone. */
function queryOf(filters: Filters, timeZone: string | undefined): AuditLogQuery {
  const actor = filters.actor.trim();
  return {
    ...(filters.action && { action: filters.action as AuditAction }),
    ...(actor && { actor }),
    ...(filters.from && { from: filters.from }),
    ...(filters.to && { to: filters.to }),
    // The days as the administrator reads them: the page's zone, else (undefined) the browser's own.
    ...((filters.from || filters.to) && { timeZone: timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone }),
  };
}

function AuditFilters({ onFilter }: { onFilter: (filters: Filters) => void }) {
  const form = useForm({ initialValues: NO_FILTERS });
  return (
    <form onSubmit={form.onSubmit(onFilter)}>
      <Group align="flex-end" gap="sm">
        <Select
          label="Action"
          placeholder="All actions"
          data={[...AUDIT_ACTIONS]}
          clearable
          comboboxProps={LIST_IN_MAIN}
          {...form.getInputProps('action')}
          w={{ base: '100%', xs: 180 }}
        />
        <TextInput
          label="Administrator"
          placeholder="admin@example.com"
          {...form.getInputProps('actor')}
          w={{ base: '100%', xs: 220 }}
        />
        <TextInput label="From" type="date" {...form.getInputProps('from')} w={{ base: '47%', xs: 160 }} />
        <TextInput label="To" type="date" {...form.getInputProps('to')} w={{ base: '47%', xs: 160 }} />
        <FilterButtons
          onClear={() => {
            form.reset();
            onFilter(NO_FILTERS);
          }}
        />
      </Group>
    </form>
  );
}

/** Every administrator change, newest first: who, when, what and its figures; a page at a time, with filters. */
export function AuditLogView() {
  const timeZone = useTimeZone();
  const [filters, setFilters] = useState<AuditLogQuery>({});
  const positions = usePositions();
  const before = positions.current;
  const log = useAuditLog({ ...filters, ...(before && { before }) });
  const data = log.data;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Every change made on this page is recorded with who made it and its figures; so are the alerts the shop opens
        and resolves by itself.
      </Text>
      <AuditFilters
        onFilter={(next) => {
          setFilters(queryOf(next, timeZone));
          positions.reset();
        }}
      />
      {log.isPending && <Loader size="sm" aria-label="Loading the audit log" />}
      <FormError message={log.error?.message ?? null} />
      {data && data.entries.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {Object.keys(filters).length > 0 ? 'No changes match these filters.' : 'No changes recorded yet.'}
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
      <PositionPager
        positions={positions}
        next={data?.next}
        waiting={log.isPlaceholderData}
        labels={{ back: 'Newer', forward: 'Older', last: 'the oldest' }}
      />
    </Stack>
  );
}
