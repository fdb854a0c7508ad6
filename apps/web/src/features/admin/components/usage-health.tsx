import { Badge, Group, Progress, Text } from '@mantine/core';
import { formatPercent } from '@storefront/contract';

/** Spec section 4 'Usage health': above 80 percent Critical (red), above 60 Warning (yellow), otherwise Healthy. */
export function usageHealth(percent: number): {
  label: 'Critical' | 'Warning' | 'Healthy';
  color: 'red' | 'yellow' | 'green';
} {
  if (percent > 80) return { label: 'Critical', color: 'red' };
  if (percent > 60) return { label: 'Warning', color: 'yellow' };
  return { label: 'Healthy', color: 'green' };
}

/** Spec section 4 'Usage health': Critical above 80 percent (red), Warning above 60 (yellow), otherwise Healthy (green). */
export function HealthBadge({ percent }: { percent: number }) {
  const health = usageHealth(percent);
  return (
    <Badge color={health.color} variant="light">
      {health.label}
    </Badge>
  );
}

/** A usage bar in the health colours, with its figure. */
export function UsageBar({ percent, label }: { percent: number; label: string }) {
  const health = usageHealth(percent);
  return (
    <div>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text size="sm">{label}</Text>
        <Text size="sm" fw={600}>
          {formatPercent(percent)}
        </Text>
      </Group>
      <Progress
        value={Math.min(100, percent)}
        color={health.color}
        size="lg"
        aria-label={`${label}: ${formatPercent(percent)}`}
      />
    </div>
  );
}
