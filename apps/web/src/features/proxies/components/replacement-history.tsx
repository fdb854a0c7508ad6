import { Button, Loader, Stack, Text, VisuallyHidden } from '@mantine/core';
import {
  formatDate,
  REPLACEMENT_REASON_LABELS,
  type ReplacementAllowance,
  type ReplacementEntry,
} from '@storefront/contract';
import { useId, useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { useReplacementPage } from '../api/proxies-api.ts';
import classes from './replacements.module.css';

/** "2 of 2 replacements left this billing period (until …)", or that the shop turned them off. */
export function allowanceText(allowance: ReplacementAllowance, timeZone: string | undefined): string {
  if (allowance.percent === 0) return 'IP replacements are turned off in this shop.';
  const until = allowance.periodEnd ? ` (until ${formatDate(allowance.periodEnd, 'long-date', timeZone)})` : '';
  return `${allowance.left} of ${allowance.limit} replacements left this billing period${until}.`;
}

const STATUS_WORDS: Record<ReplacementEntry['status'], string> = {
  done: 'Replaced',
  waiting: 'Waiting for stock',
  void: 'Not made: the order ended first',
};

/** An order's replacements, newest first (when, which IP, which new one, why), a page at a time. */
export function ReplacementHistory({ orderId }: { orderId: string }) {
  const first = useReplacementPage(orderId);
  const timeZone = useTimeZone();
  const headingId = useId();
  // The positions of the pages shown after the first, each the `next` of the page before.
  const [later, setLater] = useState<string[]>([]);
  const allowance = first.data?.allowance;
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId} data-testid="replacement-history">
      <Text id={headingId} component="h2" fw={600} size="sm" m={0}>
        Replacement history
      </Text>
      {allowance && (
        <Text size="xs" c="dimmed">
          {allowanceText(allowance, timeZone)}
        </Text>
      )}
      {first.isSuccess && first.data.replacements.length === 0 && (
        <Text size="sm" c="dimmed">
          No replacements yet.
        </Text>
      )}
      {[undefined, ...later].map((after, index) => (
        <HistoryPage
          key={after ?? ''}
          orderId={orderId}
          after={after}
          last={index === later.length}
          onMore={(next) => setLater((positions) => [...positions, next])}
        />
      ))}
    </Stack>
  );
}

/** One page of the history as a list, and under the last page shown, Show more when more follow. */
function HistoryPage({
  orderId,
  after,
  last,
  onMore,
}: {
  orderId: string;
  after: string | undefined;
  last: boolean;
  onMore: (next: string) => void;
}) {
  const page = useReplacementPage(orderId, after);
  const timeZone = useTimeZone();
  const entries = page.data?.replacements ?? [];
  const next = page.data?.next;
  return (
    <>
      {page.isPending && <Loader size="xs" aria-label="Loading the replacement history" />}
      <FormError message={page.error?.message ?? null} />
      {entries.length > 0 && (
        <ul className={classes.history}>
          {entries.map((entry) => (
            <li key={entry.id} className={classes.entry}>
              <Text size="sm" className={classes.addresses}>
                <span className={classes.address}>{entry.oldIp}</span>
                <span aria-hidden> → </span>
                <VisuallyHidden> replaced by </VisuallyHidden>
                <span className={classes.address}>{entry.newIp ?? 'a new IP when stock arrives'}</span>
              </Text>
              <Text size="xs" c="dimmed">
                {formatDate(entry.requestedAt, 'date-time', timeZone)} · {REPLACEMENT_REASON_LABELS[entry.reason]} ·{' '}
                {STATUS_WORDS[entry.status]}
              </Text>
            </li>
          ))}
        </ul>
      )}
      {last && next && (
        <Button size="xs" variant="default" w="fit-content" onClick={() => onMore(next)}>
          Show more replacements
        </Button>
      )}
    </>
  );
}
