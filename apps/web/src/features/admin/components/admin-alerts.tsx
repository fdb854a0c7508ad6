import { Alert, Anchor, Box, Group, List, Stack, Text, UnstyledButton } from '@mantine/core';
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
import { useNow } from '../../../lib/use-now.ts';
import { ADMIN_TABS } from '../admin-tabs.ts';
import { useOpenAlerts } from '../api/alerts-api.ts';

/**
 * Alerts shown of a kind before 'Show all' on a wide screen. On a phone (below Mantine's `sm`, 48em) none, only the
 * kind and its count, so that the tabs stay on the first screen however many kinds are open. Chosen by CSS
 * (`visibleFrom`, `hiddenFrom`), not a media query in JavaScript, so the console the server draws is right at any width
 * and does not move when it hydrates.
 */
const FIRST_SHOWN_WIDE = 3;

const COLORS: Record<AlertKind, string> = {
  order_waiting: 'orange',
  low_stock: 'yellow',
  job_stuck: 'red',
  outbox_failing: 'red',
};

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** "just now", "5 minutes ago", "2 hours ago", "3 days ago". */
function ago(iso: string, now: number): string {
  const minutes = Math.round((new Date(iso).getTime() - now) / 60_000);
  if (minutes > -1) return 'just now';
  if (minutes > -60) return relative.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 48) return relative.format(hours, 'hour');
  return relative.format(Math.round(hours / 24), 'day');
}

function showLabel(count: number, listed: number): string {
  if (count === 1) return 'Show it';
  return count === listed ? `Show all ${count}` : `Show ${listed} of ${count}`;
}

const tabLabel = (tab: string) => ADMIN_TABS.find((entry) => entry.value === tab)?.label ?? tab;

function AlertGroup({ kind, count, alerts }: { kind: AlertKind; count: number; alerts: AdminAlert[] }) {
  const timeZone = useTimeZone();
  const now = useNow();
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? alerts : alerts.slice(0, FIRST_SHOWN_WIDE);
  // On a wide screen the button is needed only when more are listed than shown first; on a phone always.
  const moreThanFirst = alerts.length > FIRST_SHOWN_WIDE;
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
        <List
          size="sm"
          spacing={4}
          listStyleType="none"
          withPadding={false}
          mb={tabs.length > 0 || moreThanFirst || expanded ? 6 : 0}
          visibleFrom={expanded ? undefined : 'sm'}
        >
          {shown.map((alert) => (
            <List.Item key={alert.id}>
              {alert.summary}{' '}
              <Text span size="xs" title={formatDate(alert.openedAt, 'date-time', timeZone)}>
                (opened {ago(alert.openedAt, now)})
              </Text>
            </List.Item>
          ))}
        </List>
      )}
      {(alerts.length > 0 || tabs.length > 0) && (
        <Group gap="md" style={{ rowGap: 6 }}>
          {alerts.length > 0 && (
            <UnstyledButton
              onClick={() => setExpanded((value) => !value)}
              fz="sm"
              fw={600}
              td="underline"
              c="inherit"
              aria-expanded={expanded}
              hiddenFrom={moreThanFirst || expanded ? undefined : 'sm'}
            >
              {expanded ? (
                <>
                  <Box component="span" hiddenFrom="sm">
                    Hide
                  </Box>
                  <Box component="span" visibleFrom="sm">
                    Show fewer
                  </Box>
                </>
              ) : (
                showLabel(count, alerts.length)
              )}
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
 * The open alerts, above every tab of the admin console, one box per kind, until they resolve by
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
