import { Alert, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { formatDate, formatPercent, paths } from '@storefront/contract';
import { IconBuildingStore, IconChartPie, IconServer, IconShoppingCart } from '@tabler/icons-react';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { type FirstReads, read } from '../../../lib/first-read.ts';
import { PAGE_HEADINGS } from '../../../lib/page-headings.ts';
import { ordersKeys, useOrders, useOrderUsage } from '../../../lib/queries/orders.ts';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { useNow } from '../../../lib/use-now.ts';
import { PAGE_TITLES, usePageTitle } from '../../../lib/use-page-title.ts';
import { overviewFigures } from '../api/overview-data.ts';

function StatCard({
  label,
  value,
  icon,
  loading,
}: {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  loading: boolean;
}) {
  const labelId = useId();
  return (
    // The figure at the card's foot: the cards of a row are as tall as the tallest, so their figures line up whether a
    // label takes one line or two.
    <Card withBorder padding="lg" role="group" aria-labelledby={labelId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Text size="sm" c="dimmed" fw={500} id={labelId}>
          {label}
        </Text>
        <ThemeIcon variant="light" size={40} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
      {loading ? (
        <Skeleton h={32} w={60} mt="auto" />
      ) : (
        <Text fz={28} fw={700} lh={1.2} mt="auto">
          {value}
        </Text>
      )}
    </Card>
  );
}

/** What the server reads to draw this page for its reader (the same keys as the hooks below). */
export const firstReads: FirstReads = () => [
  read('listOrders', ordersKeys.list()),
  read('listOrderUsage', ordersKeys.usage()),
];

export function OverviewPage() {
  usePageTitle(PAGE_TITLES[paths.overview]);
  const { user } = useAuth();
  const timeZone = useTimeZone();
  const orders = useOrders();
  const usage = useOrderUsage();
  const figures = overviewFigures(orders.data ?? [], usage.data ?? [], new Date(useNow()));
  const loading = orders.isPending || usage.isPending;
  const error = orders.error ?? usage.error;

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {PAGE_HEADINGS[paths.overview].title}
      </Title>
      {error && (
        <Alert color="red" variant="light" role="alert" title="Some figures could not be loaded">
          {error.message}{' '}
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => {
              void orders.refetch();
              void usage.refetch();
            }}
          >
            Retry
          </Button>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
        <StatCard
          label="Active Elite ISP Proxies"
          value={figures.activeIsp}
          loading={loading}
          icon={<IconServer size={22} aria-hidden />}
        />
        <StatCard
          label="Active PK1 ISP Proxies"
          value={figures.activePk1}
          loading={loading}
          icon={<IconBuildingStore size={22} aria-hidden />}
        />
        <StatCard
          label="Residential Usage"
          value={figures.residentialUsagePercent === null ? 'No Data' : formatPercent(figures.residentialUsagePercent)}
          loading={loading}
          icon={<IconChartPie size={22} aria-hidden />}
        />
        <Card withBorder padding="lg">
          <Stack gap="sm" h="100%" justify="space-between">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" c="dimmed" fw={500}>
                Need more proxies?
              </Text>
              <ThemeIcon variant="light" size={40} radius="md" color="green">
                <IconShoppingCart size={22} aria-hidden />
              </ThemeIcon>
            </Group>
            <Button component={Link} to={paths.purchase}>
              Purchase Proxies
            </Button>
          </Stack>
        </Card>
      </SimpleGrid>
      <Card withBorder padding="lg">
        <Title order={2} size="h4" mb="md">
          Account Information
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              Email
            </Text>
            <Text fw={500} style={{ wordBreak: 'break-all' }}>
              {user?.email}
            </Text>
          </Stack>
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              User ID
            </Text>
            <Text fw={500} ff="monospace" title={user?.id}>
              {user ? `${user.id.slice(0, 8)}...` : ''}
            </Text>
          </Stack>
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              Member since
            </Text>
            <Text fw={500}>{user?.createdAt ? formatDate(user.createdAt, 'date', timeZone) : 'N/A'}</Text>
          </Stack>
        </SimpleGrid>
      </Card>
    </Stack>
  );
}
