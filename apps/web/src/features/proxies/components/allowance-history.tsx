import { Button, Stack, Table, Text } from '@mantine/core';
import { describeAllowance, formatDate, type ProxyUser } from '@storefront/contract';
import { FormError } from '../../../components/form-error.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { useAllowanceHistory } from '../api/proxy-users-api.ts';

const inWords = (state: { type: 'none' | 'total' | 'monthly'; limitInKb: number | null; resetDay: number | null }) =>
  describeAllowance({ allowance: state.type, allowanceInKb: state.limitInKb, resetDay: state.resetDay });

/** Every change of a proxy user's allowance: when, who, from and to, newest first, a page at a time. */
export function AllowanceHistory({ user }: { user: ProxyUser }) {
  const timeZone = useTimeZone();
  const history = useAllowanceHistory(user.id);
  const changes = history.data?.pages.flatMap((page) => page.changes) ?? [];
  if (history.isPending)
    return (
      <Text size="sm" c="dimmed">
        Loading...
      </Text>
    );
  if (history.isError) return <FormError message={history.error.message} />;
  return (
    <Stack gap="sm">
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          Its allowance has not been changed.
        </Text>
      ) : (
        // On a phone the table scrolls sideways: the scroll area takes the focus, so the arrow keys scroll it too.
        <Table.ScrollContainer
          minWidth={480}
          scrollAreaProps={{
            type: 'auto',
            viewportProps: { tabIndex: 0, role: 'region', 'aria-label': `Changes of ${user.name}'s allowance` },
          }}
        >
          <Table verticalSpacing="xs" aria-label={`Allowance history of ${user.name}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>From</Table.Th>
                <Table.Th>To</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((change) => (
                <Table.Tr key={change.id}>
                  <Table.Td>{formatDate(change.changedAt, 'date-time', timeZone)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{change.changedBy}</Table.Td>
                  <Table.Td>{inWords(change.from)}</Table.Td>
                  <Table.Td>{inWords(change.to)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {history.hasNextPage && (
        <Button variant="default" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
          Show Older Changes
        </Button>
      )}
    </Stack>
  );
}
