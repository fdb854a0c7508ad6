import {
  ActionIcon,
  Button,
  Card,
  Group,
  PasswordInput,
  Progress,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  formatDate,
  formatGb,
  formatPercent,
  type OrderUsage,
  type ProcessingOrder,
  paths,
} from '@storefront/contract';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DailyUsageChart } from '../../../components/daily-usage-chart.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { useDailyUsage } from '../api/proxies-api.ts';
import { usageColor } from '../proxies-model.ts';
import { ProcessingRow } from './order-card.tsx';
import { ProxyUsersCard } from './proxy-users-card.tsx';
import { ResidentialGenerator } from './residential-generator.tsx';
import { TopUpCard } from './top-up-card.tsx';

export { preloadTopUpForm } from './top-up-card.tsx';

function CopyIcon({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : label} withArrow>
          <ActionIcon variant="subtle" onClick={copy} aria-label={label}>
            {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** What the gateway carried per day; nothing while there is no traffic to show. */
function UsageOverTime() {
  const daily = useDailyUsage(true);
  const days = daily.data?.days ?? [];
  if (!days.some((entry) => entry.usedInKb > 0)) return null;
  return <DailyUsageChart days={days} label="Data used" />;
}

function UsageCard({ account }: { account: OrderUsage }) {
  const percent = account.totalInKb > 0 ? Math.min(100, (account.usedInKb / account.totalInKb) * 100) : 0;
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <div>
          <Group justify="space-between" mb={6}>
            <Title order={2} size="h5">
              Data usage
            </Title>
            <Text size="sm" fw={600}>
              {formatGb(account.usedInKb)} of {formatGb(account.totalInKb)}
            </Text>
          </Group>
          <Progress
            value={percent}
            color={usageColor(percent)}
            size="lg"
            aria-label={`Data used: ${formatPercent(percent)}`}
          />
          <Text size="xs" c="dimmed" mt={4}>
            {formatGb(Math.max(0, account.totalInKb - account.usedInKb))} left · data never expires
          </Text>
        </div>
        <UsageOverTime />
        <Group grow align="flex-end" wrap="wrap">
          <TextInput
            label="Endpoint"
            value={account.endpoint}
            readOnly
            rightSection={<CopyIcon value={account.endpoint} label="Copy endpoint" />}
            miw={200}
          />
          <TextInput
            label="Username"
            value={account.username}
            readOnly
            rightSection={<CopyIcon value={account.username} label="Copy username" />}
            miw={200}
          />
          <PasswordInput label="Password" value={account.password} readOnly miw={200} />
        </Group>
        <Group gap={4}>
          <CopyIcon value={account.password} label="Copy password" />
          <Text size="xs" c="dimmed">
            Copy password
          </Text>
        </Group>
        <ResidentialGenerator account={account} />
      </Stack>
    </Card>
  );
}

/**
 * The Residential tab: waiting orders, then each account's usage, credentials and list generator, its automatic top-up
 * and its proxy users.
 */
export function ResidentialTab({ usage, processing }: { usage: OrderUsage[]; processing: ProcessingOrder[] }) {
  const timeZone = useTimeZone();
  if (usage.length === 0 && processing.length === 0) {
    // As the ISP tabs' empty states: what is missing, and where to get it.
    return (
      <Stack align="center" gap="xs" py="xl">
        <Text c="dimmed">No residential proxies</Text>
        <Button component={Link} to={paths.purchase} variant="light">
          Buy Residential Proxies
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {processing.map((order) => (
        <ProcessingRow
          key={order.id}
          label={`${order.quantity} GB of residential data`}
          detail={formatDate(order.createdAt, 'date-time', timeZone)}
        />
      ))}
      {usage.map((account) => (
        <Stack key={account.username} gap="md">
          <UsageCard account={account} />
          <TopUpCard />
          <ProxyUsersCard account={account} />
        </Stack>
      ))}
    </Stack>
  );
}
