import { Alert, Anchor, Group, List, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  type AdminAlert,
  ALERT_KIND_TITLES,
  ALERT_KINDS,
  type AlertKind,
  formatDate,
  paths,
} from '@storefront/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { ADMIN_TABS } from '../admin-tabs.ts';
import { useOpenAlerts } from '../api/alerts-api.ts';

/**
 * Alerts shown of a kind before 'Show all': on a phone none, only the kind and its count, so that the tabs stay on the
 * first screen however many kinds are open.
 */
const FIRST_SHOWN = { wide: 3, narrow: 0 };
const NARROW = '(max-width: 48em)';

const COLORS: Record<AlertKind, string> = {
  order_waiting: 'orange',
  low_stock: 'yellow',
  job_stuck: 'red',
  outbox_failing: 'red',
};

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** "just now", "5 minutes ago", "2 hours ago", "3 days ago". */
function ago(iso: string, now = Date.now()): string {
  const minutes = Math.round((new Date(iso).getTime() - now) / 60_000);
  if (minutes > -1) return 'just now';
  if (minutes > -60) return relative.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 48) return relative.format(hours, 'hour');
  return relative.format(Math.round(hours / 24), 'day');
}

function showLabel(expanded: boolean, first: number, count: number, listed: number): string {
  if (expanded) return first === 0 ? 'Hide' : 'Show fewer';
  if (count === 1) return 'Show it';
  return count === listed ? `Show all ${count}` : `Show ${listed} of ${count}`;
}

const tabLabel = (tab: string) => ADMIN_TABS.find((entry) => entry.value === tab)?.label ?? tab;

function AlertGroup({ kind, count, alerts }: { kind: AlertKind; count: number; alerts: AdminAlert[] }) {
  const timeZone = useTimeZone();
  const [expanded, setExpanded] = useState(false);
  const first = useMediaQuery(NARROW) ? FIRST_SHOWN.narrow : FIRST_SHOWN.wide;
  const shown = expanded ? alerts : alerts.slice(0, first);
  // Where to act on them: a custom order under Custom Ordering, stock under Inventory, each named once.
  const tabs = [...new Set(alerts.flatMap((alert) => (alert.tab ? [alert.tab] : [])))];
  const unlisted = count - alerts.length;
  return (
    <Alert
      color={COLORS[kind]}
      variant="light"
      icon={<IconAlertTriangle size={20} aria-hidden />}
      title={`${ALERT_KIND_TITLES[kind]} (${count})`}
      role="alert"
    >
      {shown.length > 0 && (
        <List size="sm" spacing={4} listStyleType="none" withPadding={false}>
          {shown.map((alert) => (
            <List.Item key={alert.id}>
              {alert.summary}{' '}
              <Text span size="xs" title={formatDate(alert.openedAt, 'date-time', timeZone)}>
                (opened {ago(alert.openedAt)})
              </Text>
            </List.Item>
          ))}
        </List>
      )}
      {(alerts.length > first || tabs.length > 0) && (
        <Group gap="md" mt={shown.length > 0 ? 6 : 0} style={{ rowGap: 6 }}>
          {alerts.length > first && (
            <UnstyledButton
              onClick={() => setExpanded((value) => !value)}
              fz="sm"
              fw={600}
              td="underline"
              c="inherit"
              aria-expanded={expanded}
            >
              {showLabel(expanded, first, count, alerts.length)}
            </UnstyledButton>
          )}
          {tabs.map((tab) => (
            <Anchor
              key={tab}
              component={Link}
              to={tab === 'inventory' ? paths.admin : `${paths.admin}?tab=${tab}`}
              fz="sm"
              fw={600}
              c="inherit"
              underline="always"
            >
              Go to {tabLabel(tab)}
            </Anchor>
          ))}
        </Group>
      )}
      {expanded && unlisted > 0 && (
        <Text size="xs" mt={4}>
          {unlisted} more are open; the oldest {alerts.length} are listed.
        </Text>
      )}
    </Alert>
  );
}

/**
 * The open alerts, above every tab of the admin console (issue 36 item 5), one box per kind, until they resolve by
 * themselves (stock arrives, the order is delivered, the job succeeds, the e-mail is sent). Nothing when all is well.
 */
export function AdminAlerts() {
  const { data, error } = useOpenAlerts();
  if (error) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {error.message}
      </Text>
    );
  }
  if (!data || data.total === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-label="Open alerts">
      {ALERT_KINDS.filter((kind) => data.counts[kind] > 0).map((kind) => (
        <AlertGroup
          key={kind}
          kind={kind}
          count={data.counts[kind]}
          alerts={data.alerts.filter((alert) => alert.kind === kind)}
        />
      ))}
    </Stack>
  );
}
