import { Card, SimpleGrid, Text } from '@mantine/core';
import type { UsageReport } from '@storefront/contract';
import { formatCount, formatData, formatKb } from '../usage-model.ts';

/** The range's totals: data used, connections, data left now and the average a day. */
export function UsageSummary({ summary }: { summary: UsageReport['summary'] }) {
  const cards = [
    { label: 'Data used', value: formatData(summary.bytes) },
    { label: 'Connections', value: formatCount(summary.connections) },
    { label: 'Data left', value: formatKb(summary.leftKb) },
    { label: 'Average a day', value: formatData(summary.bytesPerDay) },
  ];
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
      {cards.map((card) => (
        <Card key={card.label} withBorder padding="md" data-testid="usage-summary-card">
          <Text size="sm" c="dimmed">
            {card.label}
          </Text>
          <Text fw={700} size="lg">
            {card.value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
