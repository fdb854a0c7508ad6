import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { adminMessages, type IpPool, parseUploadLines, type Subnet } from '@storefront/contract';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { useSwapSubnet } from '../api/inventory-api.ts';

/** The Swap IPs dialog (spec sections 2 and 5): exactly as many endpoints as the subnet has IPs, each line checked. */
export function SwapDialog({ pool, subnet, onClose }: { pool: IpPool; subnet: Subnet | null; onClose: () => void }) {
  const swap = useSwapSubnet(pool);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setText('');
    setProblem(null);
    swap.reset();
    onClose();
  };

  const submit = () => {
    if (!subnet) return;
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    const parsed = parseUploadLines(lines, adminMessages.emptySwap);
    if ('error' in parsed) return setProblem(parsed.error);
    if (parsed.ips.length !== subnet.totalIps) {
      return setProblem(adminMessages.swapCountMismatch(parsed.ips.length, subnet.totalIps));
    }
    setProblem(null);
    swap.mutate(
      { subnet: subnet.subnet, newEndpoints: lines },
      {
        onSuccess: (answer) => {
          // The title says it succeeded; the line says what was swapped (the API's message would repeat the title).
          notifications.show({
            color: 'green',
            title: adminMessages.swapped,
            message: adminMessages.swapDetail(answer.swapped, subnet.subnet, answer.delivered),
          });
          close();
        },
        onError: (error) =>
          notifications.show({ color: 'red', title: adminMessages.swapFailedToast, message: error.message }),
      },
    );
  };

  return (
    <Modal opened={subnet !== null} onClose={close} title={subnet ? `Swap IPs of ${subnet.subnet}` : ''} size="lg">
      {subnet && (
        <Stack gap="sm">
          <Text size="sm">
            Paste {subnet.totalIps} new endpoints, one per line (IP:PORT:USERNAME:PASSWORD). Each IP of the subnet,
            lowest first, takes the endpoint on the same line; customers holding them see the new endpoints at once, and
            burnt IPs become available again.
          </Text>
          <Textarea
            label="New endpoints"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            autosize
            minRows={6}
            maxRows={14}
            error={problem}
            data-autofocus
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <FormError message={swap.error?.message ?? null} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={submit} loading={swap.isPending}>
              Swap IPs
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
