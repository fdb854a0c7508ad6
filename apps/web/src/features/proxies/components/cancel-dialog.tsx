import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { formatDate, type Order, ordersMessages, shortId } from '@storefront/contract';

interface CancelDialogProps {
  opened: boolean;
  order: Order | null;
  cancelling: boolean;
  error: string | null;
  onKeep: () => void;
  onConfirm: (order: Order) => void;
}

/**
 * The cancel confirmation ('Keep Order', 'Cancel Order') of `order`, open while `opened`; closes itself when the cancel
 * succeeded. Loaded when first opened (proxies-page.tsx).
 */
export function CancelDialog({ opened, order, cancelling, error, onKeep, onConfirm }: CancelDialogProps) {
  const ends = order?.expiration_time ? formatDate(order.expiration_time, 'long-date') : undefined;
  return (
    <Modal opened={opened} onClose={onKeep} title="Cancel order?" centered>
      {order && (
        <Stack>
          <Alert color="red" variant="light" title="This cannot be undone">
            <Text size="sm">
              Once the billing cycle ends you lose access to these proxy endpoints, and a cancelled order cannot be
              resumed.
            </Text>
          </Alert>
          <Text size="sm">
            Order <b>#{shortId(order.id, 8)}</b> will not renew. Its proxies keep working until the end of the billing
            cycle{ends ? ` on ${ends}` : ''}; then they are released. All sales are final: the current month is not
            refunded.
          </Text>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error || ordersMessages.unknownCancelError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onKeep} disabled={cancelling}>
              Keep Order
            </Button>
            <Button color="red" loading={cancelling} onClick={() => onConfirm(order)}>
              Cancel Order
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
