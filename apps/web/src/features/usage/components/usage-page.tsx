import { Alert, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { paths, type UsageReport } from '@storefront/contract';
import { IconChartBar } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { type FirstReads, read } from '../../../lib/first-read.ts';
import { PAGE_HEADINGS } from '../../../lib/page-headings.ts';
import { useReadsTimeZone } from '../../../lib/time-zone.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { usageQuery, useUsage } from '../api/usage-api.ts';
import { customRangeProblem, queryOf, searchOf, type UsageView, viewOf } from '../usage-model.ts';
import { UsageChart } from './usage-chart.tsx';
import { UsageControls } from './usage-controls.tsx';
import { UsageSummary } from './usage-summary.tsx';
import { UsageTable } from './usage-table.tsx';

/**
 * What the server reads to draw this page for its reader: the view in the address, in the zone their browser told (the
 * key the page's hook asks under as it hydrates); nothing for a custom range the page refuses.
 */
export const firstReads: FirstReads = (search, timeZone) => {
  const view = viewOf(search);
  if (customRangeProblem(view) !== undefined) return [];
  const query = queryOf(view, timeZone);
  return [read('getUsage', usageQuery(query).queryKey, { query })];
};

/** Adds the proxy users of an answer to those already known, so that filtering by one keeps the others to choose. */
function withUsers(known: UsageReport['users'], more: UsageReport['users'] | undefined): UsageReport['users'] {
  if (!more) return known;
  const added = more.filter((user) => !known.some((entry) => entry.proxyUserId === user.proxyUserId));
  return added.length === 0 ? known : [...known, ...added];
}

/** /dashboard/usage: the residential data used over a range, by hour or day, by proxy user, country and domain. */
export function UsagePage() {
  usePageTitle(PAGE_HEADINGS[paths.usage].title);
  const [search, setSearch] = useSearchParams();
  const view = viewOf(search);
  const timeZone = useReadsTimeZone();
  const problem = customRangeProblem(view);
  const usage = useUsage(queryOf(view, timeZone), problem === undefined);
  const [users, setUsers] = useState<UsageReport['users']>([]);
  const known = withUsers(users, usage.data?.users);
  if (known !== users) setUsers(known);
  const report = usage.data;
  const change = (next: UsageView) => setSearch(searchOf(next), { replace: true });

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {PAGE_HEADINGS[paths.usage].title}
      </Title>
      <UsageControls view={view} onChange={change} users={known} problem={problem} />
      {problem ? null : usage.isPending ? (
        <Center py="xl">
          <Group gap="sm">
            <Loader size="sm" />
            <Text c="dimmed">Loading usage...</Text>
          </Group>
        </Center>
      ) : usage.isError ? (
        <Alert color="red" variant="light" role="alert" title="Could not load your usage statistics">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{usage.error.message}</Text>
            <Button size="compact-sm" color="red" variant="light" onClick={() => void usage.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : report ? (
        <Stack gap="lg" aria-busy={usage.isFetching || undefined}>
          <Text size="sm" c="dimmed" data-testid="usage-range">
            {report.from === report.to ? report.from : `${report.from} to ${report.to}`}
          </Text>
          <UsageSummary summary={report.summary} />
          {report.summary.bytes === 0 && report.summary.connections === 0 ? (
            <Card withBorder padding="xl">
              <Stack align="center" gap="xs" py="md">
                <IconChartBar size={40} stroke={1.5} aria-hidden color="var(--mantine-color-dimmed)" />
                <Title order={2} size="h4">
                  No usage in this range
                </Title>
                <Text c="dimmed" ta="center" size="sm">
                  Data carried through your residential proxies shows here by hour or day.
                </Text>
              </Stack>
            </Card>
          ) : (
            <>
              <UsageChart report={report} timeZone={timeZone} />
              <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
                <UsageTable
                  report={report}
                  table="users"
                  title="By proxy user"
                  column="Proxy user"
                  timeZone={timeZone}
                />
                <UsageTable report={report} table="countries" title="By country" column="Country" timeZone={timeZone} />
              </SimpleGrid>
              <UsageTable report={report} table="domains" title="By domain" column="Domain" timeZone={timeZone} />
            </>
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}
