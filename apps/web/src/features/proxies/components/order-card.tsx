import { Anchor, Badge, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import {
  counted,
  formatDate,
  isOrderActive,
  type Order,
  PRODUCTS,
  type ProxyFormat,
  paths,
  pathTo,
  shortId,
} from '@storefront/contract';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { memo, startTransition, useId, useState } from 'react';
import { Link } from 'react-router';
import { site } from '../../../config/site.ts';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { useNow } from '../../../lib/use-now.ts';
import { relativeAge } from '../proxies-model.ts';
import { ProxyList } from './proxy-list.tsx';
import { ReplacementHistory } from './replacement-history.tsx';

/** The compact row of a paid order that waits for stock (spec section 4: no details). */
export function ProcessingRow({ label, detail }: { label: string; detail?: string }) {
  return (
    <Card withBorder padding="sm" data-testid="processing-order">
      <Group gap="sm">
        <Loader size="xs" />
        <Text fw={600}>Processing Order</Text>
        <Text size="sm" c="dimmed">
          {label}
          {detail ? ` · ${detail}` : ''}
        </Text>
      </Group>
    </Card>
  );
}

interface OrderCardProps {
  order: Order;
  format: ProxyFormat;
  onCancel: (order: Order) => void;
  /** Opens "Replace IPs" for an active order with proxies. */
  onReplace: (order: Order) => void;
}

/**
 * One order: id, product, purchase time and age, badges, the cancel action and, expanded, its proxies. Memoised: the
 * page re-renders when its cancel dialog opens or closes, and the cards it holds have not changed.
 */
export const OrderCard = memo(function OrderCard({ order, format, onCancel, onReplace }: OrderCardProps) {
  const [opened, setOpened] = useState(false);
  const listId = useId();
  const timeZone = useTimeZone();
  const now = new Date(useNow());
  const active = isOrderActive(order, now);
  if (order.processing) return <ProcessingRow label={PRODUCTS[order.product_id].label} />;
  return (
    <Card withBorder padding="md" data-testid="order-card">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4}>
          <Group gap="xs">
            <Text fw={700} ff="monospace">
              #{shortId(order.id, 8)}
            </Text>
            <Text fw={600}>{PRODUCTS[order.product_id].label}</Text>
          </Group>
          <Text size="sm" c="dimmed">
            Purchased {formatDate(order.purchase_time, 'date-time', timeZone)} ({relativeAge(order.purchase_time, now)})
            · {counted(order.proxies.length, 'proxy', 'proxies')}
          </Text>
          <Group gap={6}>
            <Badge color={active ? 'green' : 'gray'} variant="light">
              {active ? 'Active' : 'Expired'}
            </Badge>
            {/* A promise about the future: gone once the order has ended. */}
            {order.cancelled && active && (
              <Badge color="orange" variant="light">
                Terminate at end of billing cycle
              </Badge>
            )}
            {order.payment_failed && (
              <Badge color="red" variant="light">
                Payment Failed (Contact Support)
              </Badge>
            )}
          </Group>
          {order.expiration_time && (
            <Text size="xs" c="dimmed">
              {active ? (order.cancelled ? 'Ends' : order.payment_failed ? 'Payment was due' : 'Renews') : 'Ended'}{' '}
              {formatDate(order.expiration_time, 'date-time', timeZone)}
              {site.sandboxPayments && active && !order.cancelled && (
                <>
                  {' · '}
                  <Anchor component={Link} to={pathTo(paths.sandboxBilling, { id: order.id })} size="xs">
                    {order.payment_failed ? 'Update card' : 'Payment method'}
                  </Anchor>
                </>
              )}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          {/* Cancel is red in both schemes: the theme's contrast rule made its text near-white on the dark card. */}
          {active && !order.cancelled && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              c="var(--mantine-color-red-text)"
              onClick={() => onCancel(order)}
            >
              Cancel
            </Button>
          )}
          {active && order.proxies.length > 0 && (
            <Button size="xs" variant="default" onClick={() => onReplace(order)}>
              Replace IPs
            </Button>
          )}
          {/* An ended order's IPs were released: nothing to show. */}
          {order.proxies.length > 0 && (
            <Button
              size="xs"
              variant="light"
              // A transition: React renders the list in slices between frames, not as one long task.
              onClick={() => startTransition(() => setOpened((value) => !value))}
              aria-expanded={opened}
              aria-controls={opened ? listId : undefined}
              rightSection={
                opened ? <IconChevronUp size={14} aria-hidden /> : <IconChevronDown size={14} aria-hidden />
              }
            >
              {opened ? 'Hide proxies' : 'Show proxies'}
            </Button>
          )}
        </Group>
      </Group>
      {/* Shown at once, without a height animation: an order can hold 10,000 proxies, and an animated Collapse renders
          the list a second time and holds it back two frames before it even starts to open. */}
      {opened && order.proxies.length > 0 && (
        <Stack mt="md" id={listId}>
          <ProxyList order={order} format={format} />
          <ReplacementHistory orderId={order.id} />
        </Stack>
      )}
    </Card>
  );
});
