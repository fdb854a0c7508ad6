import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import {
  formatDate,
  formatMoney,
  paths,
  shortId,
  type TopUp,
  type TopUpEntry,
  type TopUpStatus,
  topUpMessages,
} from '@storefront/contract';
import { IconAlertCircle, IconCreditCard } from '@tabler/icons-react';
import { Suspense, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { FormError } from '../../../components/form-error.tsx';
import { LazyModal } from '../../../components/lazy-dialog.tsx';
import { splitPart } from '../../../lib/split-part.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { showToast } from '../../../lib/toasts.ts';
import { withSchemas } from '../../../lib/zod-without-eval.ts';
import { useRemoveCard, useStartCardSetup, useTopUp } from '../api/top-up-api.ts';
import classes from './top-up.module.css';

// The form checks the contract's schema: a part of its own with zod, so the Residential tab shows without it. The
// browser asks for it as the card mounts, while the settings are read; the server draws it with the tab.
const topUpForm = splitPart(async () => (await withSchemas(() => import('./top-up-form.tsx'))).TopUpForm);

/** Loads the form's code: the server does before it draws the tab (proxies-page.tsx). */
export const preloadTopUpForm = () => topUpForm.preload();

const STATUS: Record<TopUpStatus, { label: string; color: string }> = {
  paid: { label: 'Paid', color: 'green' },
  charging: { label: 'Charging', color: 'blue' },
  failed: { label: 'Failed', color: 'red' },
  needs_action: { label: 'Needs your confirmation', color: 'orange' },
};

/** The saved card top-ups are charged to, and the way to save, replace or remove it. */
function SavedCard({ topUp }: { topUp: TopUp }) {
  const start = useStartCardSetup();
  const remove = useRemoveCard();
  const [removing, setRemoving] = useState(false);
  // The provider's page saves the card and sends the customer back here (with ?card=saved).
  const openCardPage = () =>
    start.mutate(undefined, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (error) => showToast({ color: 'red', message: error.message }),
    });
  return (
    <Group
      justify="space-between"
      gap="sm"
      py="sm"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <IconCreditCard size={20} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm" fw={500} data-testid="top-up-card-label" style={{ overflowWrap: 'anywhere' }}>
          {topUp.card ? `Card: ${topUp.card.label}` : 'No card saved'}
        </Text>
      </Group>
      <Group gap="xs">
        <Button variant={topUp.card ? 'default' : 'filled'} loading={start.isPending} onClick={openCardPage}>
          {topUp.card ? 'Replace card' : 'Save a card'}
        </Button>
        {topUp.card && (
          <Button variant="subtle" color="red" onClick={() => setRemoving(true)}>
            Remove card
          </Button>
        )}
      </Group>
      <LazyModal
        opened={removing}
        onClose={() => {
          remove.reset();
          setRemoving(false);
        }}
        title="Remove the card?"
        centered
      >
        <Stack gap="md">
          <FormError message={remove.error?.message ?? null} />
          <Text size="sm">
            {topUp.card?.label} is forgotten and automatic top-up turns off. You can save a card again at any time.
          </Text>
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                remove.reset();
                setRemoving(false);
              }}
            >
              Keep card
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => {
                    setRemoving(false);
                    showToast({ color: 'green', message: topUpMessages.cardRemoved });
                  },
                })
              }
            >
              Remove card
            </Button>
          </Group>
        </Stack>
      </LazyModal>
    </Group>
  );
}

function StatusBadge({ status }: { status: TopUpStatus }) {
  return (
    <Badge color={STATUS[status].color} variant="light" style={{ flexShrink: 0 }}>
      {STATUS[status].label}
    </Badge>
  );
}

/** A paid top-up's order, in Order History; else why a payment did not go through, if it says. */
function Details({ entry }: { entry: TopUpEntry }) {
  if (entry.status === 'paid' && entry.orderId)
    return (
      <Anchor component={Link} to={paths.orderHistory} size="sm">
        Order #{shortId(entry.orderId, 8)} in Order History
      </Anchor>
    );
  return entry.message ? (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {entry.message}
    </Text>
  ) : null;
}

/** What each top-up did, newest first: when, how much, what it cost, and how it went in words. */
function TopUpHistory({ history }: { history: TopUpEntry[] }) {
  const timeZone = useTimeZone();
  if (history.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No top-ups yet.
      </Text>
    );
  const when = (entry: TopUpEntry) => formatDate(entry.startedAt, 'date-time', timeZone);
  const what = (entry: TopUpEntry) =>
    `${entry.amountGb.toLocaleString('en-US')} GB · ${formatMoney(entry.amountCents, entry.currency)}`;
  return (
    <>
      <ul className={classes.list} aria-label="Top-up history">
        {history.map((entry) => (
          <li key={entry.id}>
            <Stack gap={4}>
              <Group justify="space-between" gap="xs" align="flex-start">
                <Text size="sm" fw={500}>
                  {when(entry)}
                </Text>
                <StatusBadge status={entry.status} />
              </Group>
              <Text size="sm" c="dimmed">
                {what(entry)}
              </Text>
              <Details entry={entry} />
            </Stack>
          </li>
        ))}
      </ul>
      {/* Wider than the card on a small laptop: it scrolls sideways, and the scroll area takes the focus for it. */}
      <Table.ScrollContainer
        minWidth={600}
        className={classes.table}
        scrollAreaProps={{
          type: 'auto',
          viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Top-ups, scrolling sideways' },
        }}
      >
        <Table verticalSpacing="xs" aria-label="Top-up history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th ta="right">Data</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Details</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.map((entry) => (
              <Table.Tr key={entry.id} data-testid="top-up-entry">
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(entry)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {entry.amountGb.toLocaleString('en-US')} GB
                </Table.Td>
                <Table.Td ta="right">{formatMoney(entry.amountCents, entry.currency)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={entry.status} />
                </Table.Td>
                <Table.Td>
                  <Details entry={entry} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}

/**
 * Automatic top-up (Residential tab): on or off with its threshold, amount and caps, the saved card, why it waits or
 * switched itself off, and the latest top-ups.
 */
export function TopUpCard() {
  const titleId = useId();
  const topUp = useTopUp(true);
  useEffect(() => void topUpForm.preload().catch(() => {}), []);
  const data = topUp.data;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId} data-testid="top-up-card">
      <Stack gap="sm">
        <Stack gap={4} maw={560}>
          <Group gap="xs">
            <Title order={2} size="h5" id={titleId}>
              Automatic top-up
            </Title>
            {data && (
              <Badge color={data.enabled ? 'green' : 'gray'} variant="light">
                {data.enabled ? 'On' : 'Off'}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            Never run out: when the data left falls under your threshold, we buy more on your saved card, within your
            caps.
          </Text>
        </Stack>
        {/* A read that fails after one that did leaves what was read on screen. */}
        {!data && topUp.isError ? (
          <FormError message={topUp.error.message} />
        ) : !data ? (
          <Text c="dimmed" size="sm">
            Loading...
          </Text>
        ) : (
          <>
            {data.switchedOffAt && !data.enabled && (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
                {topUpMessages.switchedOff}
              </Alert>
            )}
            {data.waiting && (
              <Alert color="yellow" variant="light">
                {data.waiting}
              </Alert>
            )}
            <Text size="sm" data-testid="top-up-spent">
              Spent this month: {formatMoney(data.spentThisMonthCents, data.currency)} of{' '}
              {formatMoney(data.monthlyCapDollars * 100, data.currency)}
            </Text>
            <SavedCard topUp={data} />
            <Suspense fallback={<Loader size="sm" aria-label="Loading the form" />}>
              <topUpForm.Part topUp={data} />
            </Suspense>
            <Title order={3} size="h6" mt="sm">
              Latest top-ups
            </Title>
            <TopUpHistory history={data.history} />
          </>
        )}
      </Stack>
    </Card>
  );
}
