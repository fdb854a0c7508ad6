import { Alert, Button, Checkbox, Group, Modal, NativeSelect, Pagination, Stack, Text, TextInput } from '@mantine/core';
import {
  counted,
  type Order,
  REPLACEMENT_REASON_LABELS,
  REPLACEMENT_REASONS,
  type ReplacementReason,
  shortId,
} from '@storefront/contract';
import { useMemo, useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { showToast } from '../../../lib/toasts.ts';
import { usePreviewReplacement, useReplaceIps, useReplacementPage } from '../api/proxies-api.ts';
import { allowanceText } from './replacement-history.tsx';
import classes from './replacements.module.css';

/** IPs listed a page at a time in the dialog: an order may hold thousands. */
const CHOICES_PER_PAGE = 8;

/** A stored line's address (`ip:port`), what the replacement names. */
const addressOf = (line: string) => line.split(':').slice(0, 2).join(':');

/** "Replace IPs" of an active Elite ISP or PK1 order: pick IPs and a reason, see what it does, confirm. */
export function ReplaceDialog({
  opened,
  order,
  onClose,
}: {
  opened: boolean;
  order: Order | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened && order !== null}
      onClose={onClose}
      title={order ? `Replace IPs of order #${shortId(order.id, 8)}` : 'Replace IPs'}
      centered
      size="lg"
    >
      {order && <ReplaceForm key={order.id} order={order} onDone={onClose} />}
    </Modal>
  );
}

/** Pick IPs and a reason, see what it does (the preview), confirm; a toast tells the outcome. */
function ReplaceForm({ order, onDone }: { order: Order; onDone: () => void }) {
  const timeZone = useTimeZone();
  const history = useReplacementPage(order.id);
  const preview = usePreviewReplacement(order.id);
  const replace = useReplaceIps(order.id);
  const [reason, setReason] = useState<ReplacementReason>('blocked');
  const [picked, setPicked] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const addresses = useMemo(() => order.proxies.map(addressOf), [order.proxies]);
  // An IP waiting for its replacement cannot be asked again (the server says so too).
  const waiting = new Set(history.data?.waitingIps);
  const allowance = history.data?.allowance;
  const left = allowance?.left ?? 0;
  const wanted = filter.trim();
  const matching = wanted ? addresses.filter((address) => address.includes(wanted)) : addresses;
  const pages = Math.max(1, Math.ceil(matching.length / CHOICES_PER_PAGE));
  const current = Math.min(page, pages);
  const shown = matching.slice((current - 1) * CHOICES_PER_PAGE, current * CHOICES_PER_PAGE);
  const request = { ips: picked, reason };

  if (preview.data) {
    const seen = preview.data;
    return (
      <Stack>
        <Alert
          color={seen.withinAllowance ? (seen.waiting > 0 ? 'yellow' : 'blue') : 'red'}
          variant="light"
          title="What happens"
        >
          <Text size="sm">{seen.message}</Text>
        </Alert>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {counted(picked.length, 'IP', 'IPs')} to replace · {REPLACEMENT_REASON_LABELS[reason]}
          </Text>
          <ul className={classes.choices} aria-label="IPs to replace">
            {picked.map((address) => (
              <li key={address}>
                <Text size="sm" ff="monospace">
                  {address}
                </Text>
              </li>
            ))}
          </ul>
        </Stack>
        <FormError message={replace.error?.message ?? null} />
        <Group justify="flex-end">
          <Button
            variant="default"
            disabled={replace.isPending}
            onClick={() => {
              preview.reset();
              replace.reset();
            }}
          >
            Back
          </Button>
          <Button
            disabled={!seen.withinAllowance}
            loading={replace.isPending}
            onClick={() =>
              replace.mutate(request, {
                onSuccess: (result) => {
                  showToast({
                    color: result.replaced.length > 0 ? 'green' : 'yellow',
                    title: result.replaced.length > 0 ? 'IPs replaced' : 'Waiting for stock',
                    message: result.message,
                  });
                  onDone();
                },
              })
            }
          >
            Replace {counted(picked.length, 'IP', 'IPs')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (picked.length > 0) preview.mutate(request);
      }}
    >
      <Stack>
        <Text size="sm">
          Pick the IPs that do not work for you. Each gets a new IP from the pool, at once while the pool has free IPs
          (else when new ones arrive); the old one stops working when it is replaced.
        </Text>
        {allowance ? (
          <Text size="sm" fw={500}>
            {allowanceText(allowance, timeZone)}
          </Text>
        ) : (
          <FormError message={history.error?.message ?? null} />
        )}
        <NativeSelect
          label="Reason"
          data={REPLACEMENT_REASONS.map((value) => ({ value, label: REPLACEMENT_REASON_LABELS[value] }))}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value as ReplacementReason)}
        />
        {addresses.length > CHOICES_PER_PAGE && (
          <TextInput
            label="Find an IP"
            value={filter}
            onChange={(event) => {
              setFilter(event.currentTarget.value);
              setPage(1);
            }}
            placeholder="203.0.113"
          />
        )}
        <Checkbox.Group
          label={`IPs to replace (${picked.length} of ${left} picked)`}
          value={picked}
          onChange={setPicked}
        >
          <ul className={classes.choices}>
            {shown.map((address) => (
              <li key={address}>
                <Checkbox
                  value={address}
                  label={waiting.has(address) ? `${address} (waiting for its replacement)` : address}
                  disabled={waiting.has(address) || (picked.length >= left && !picked.includes(address))}
                  classNames={{ label: classes.address }}
                />
              </li>
            ))}
          </ul>
        </Checkbox.Group>
        {matching.length === 0 && (
          <Text size="sm" c="dimmed">
            No IP of this order matches.
          </Text>
        )}
        {pages > 1 && <Pagination size="sm" total={pages} value={current} onChange={setPage} aria-label="IP pages" />}
        <FormError message={preview.error?.message ?? null} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Close
          </Button>
          <Button type="submit" disabled={picked.length === 0} loading={preview.isPending}>
            Review replacement
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
