import { Badge, Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { formatGb, formatMoney, formatPoolGb, USAGE_CHART_DAYS } from '@storefront/contract';
import { useState } from 'react';
import { DailyUsageChart } from '../../../components/daily-usage-chart.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { showToast } from '../../../lib/toasts.ts';
import {
  useResidentialDailyUsage,
  useResidentialStock,
  useSetResidentialLimit,
  useTopResidentialCustomers,
} from '../api/inventory-api.ts';
import { Reserved } from './reserved.tsx';
import { HealthBadge, UsageBar } from './usage-health.tsx';

/** Spec section 9: the admin's residential values are MB, divided by 1000 to give GB, shown to 3 decimals. */

const NBSP = '\u00a0';

/** A month without traffic: the chart's stand-in while its days load, laid out as the chart will be. */
const EMPTY_MONTH = Array.from({ length: USAGE_CHART_DAYS }, (_, index) => ({
  day: new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10),
  usedInKb: 0,
}));

/** The daily chart's room while its days load (a page drawn by the browser). */
function ChartPlaceholder() {
  return (
    <Reserved>
      <DailyUsageChart days={EMPTY_MONTH} label="Carried by the gateway" />
    </Reserved>
  );
}

/** The Residential Proxy Inventory card: the bandwidth bar and the pool's size. */
export function ResidentialInventoryCard() {
  const stock = useResidentialStock();
  const setLimit = useSetResidentialLimit();
  const [limitGb, setLimitGb] = useState<string | number>('');
  const data = stock.data;
  const daily = useResidentialDailyUsage();

  const submit = () => {
    const value = typeof limitGb === 'number' ? limitGb : Number.NaN;
    if (!Number.isFinite(value) || value < 0) return;
    setLimit.mutate(Math.round(value * 1000), {
      onSuccess: (answer) => {
        showToast({ color: 'green', title: 'Residential pool updated', message: answer.message });
        setLimitGb('');
      },
    });
  };

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            Residential Proxy Inventory
          </Title>
          {data && <HealthBadge percent={data.usagePercentage} />}
          {/* The health badge's room while the stock loads: the heading wraps as it will with the badge. */}
          {stock.isPending && (
            <Reserved inline>
              <Badge variant="light">Healthy</Badge>
            </Reserved>
          )}
        </Group>
        <FormError message={stock.error?.message ?? null} />
        {stock.isPending && (
          <>
            <Reserved>
              <UsageBar percent={0} label={NBSP} />
            </Reserved>
            <Reserved>
              <SimpleGrid cols={2} spacing="xs">
                {['Used (sold)', 'Limit', 'Available', 'Carried by the gateway'].map((label) => (
                  <Figure key={label} label={label} value="0.000 GB" />
                ))}
              </SimpleGrid>
            </Reserved>
          </>
        )}
        {data && (
          <>
            <UsageBar percent={data.usagePercentage} label="Bandwidth used" />
            {/* Two figures a row at every width: the card is half the console's width, so four a row (as the window's
                width allowed) broke "500.000 GB" and the labels over two lines each, at different heights. */}
            <SimpleGrid cols={2} spacing="xs">
              <Figure label="Used (sold)" value={formatPoolGb(data.bandwidthUsed)} />
              <Figure label="Limit" value={formatPoolGb(data.bandwidthLimit)} />
              <Figure label="Available" value={formatPoolGb(data.bandwidthAvailable)} />
              <Figure label="Carried by the gateway" value={formatPoolGb(data.bandwidthCarried)} />
            </SimpleGrid>
            <Text size="sm" c="dimmed">
              {`Automatic top-ups this month: ${data.topUpsThisMonth.paid.toLocaleString('en-US')} paid (${formatMoney(data.topUpsThisMonth.paidCents, data.topUpsThisMonth.currency)}), ${data.topUpsThisMonth.failed.toLocaleString('en-US')} failed`}
            </Text>
          </>
        )}
        {/* The chart's room is held while its days load (a page drawn by the browser). */}
        {daily.isPending && <ChartPlaceholder />}
        {daily.data && <DailyUsageChart days={daily.data.days} label="Carried by the gateway" />}
        <TopCustomers />
        <Group align="flex-end" gap="sm">
          <NumberInput
            label="Set the pool (GB)"
            description="Never below what is sold; a larger pool delivers waiting orders."
            min={0}
            decimalScale={3}
            value={limitGb}
            onChange={setLimitGb}
            style={{ flex: '1 1 12rem' }}
          />
          <Button onClick={submit} loading={setLimit.isPending} disabled={limitGb === ''}>
            Set pool
          </Button>
        </Group>
        <FormError message={setLimit.error?.message ?? null} />
      </Stack>
    </Card>
  );
}

/** Who used the most data this month: the customers to watch, or to talk to about a larger plan. */
function TopCustomers() {
  const top = useTopResidentialCustomers();
  if (!top.data) return null;
  return (
    <div>
      <Title order={3} size="h6" mb={4}>
        Most data this month
      </Title>
      {top.data.customers.length === 0 ? (
        <Text size="sm" c="dimmed">
          No residential data used this month yet.
        </Text>
      ) : (
        <Stack gap={2}>
          {top.data.customers.map((customer) => (
            <Group key={customer.userId} justify="space-between" wrap="nowrap" gap="sm">
              <Text size="sm" truncate="end">
                {customer.email}
              </Text>
              <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                {formatGb(customer.usedInKb)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </div>
  );
}

export function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}
