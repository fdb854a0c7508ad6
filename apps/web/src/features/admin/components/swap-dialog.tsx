import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { adminMessages, type IpPool, parseUploadLines, type Subnet } from '@storefront/contract';
import { FormError } from '../../../components/form-error.tsx';
import { LazyModal } from '../../../components/lazy-dialog.tsx';
import { showToast } from '../../../lib/toasts.ts';
import { useSwapSubnet } from '../api/inventory-api.ts';

/** The Swap IPs dialog (spec sections 2 and 5): exactly as many endpoints as the subnet has IPs, each line checked. */
export function SwapDialog({ pool, subnet, onClose }: { pool: IpPool; subnet: Subnet | null; onClose: () => void }) {
  const swap = useSwapSubnet(pool);
  const form = useForm({
    initialValues: { endpoints: '' },
    // A problem stays said until Swap IPs is pressed again.
    clearInputErrorOnChange: false,
    validate: {
      // Every line as typed, so that a bad line's number is the one the administrator sees.
      endpoints: (text) => {
        if (!subnet) return null;
        const parsed = parseUploadLines(text.split('\n'), adminMessages.emptySwap);
        if ('error' in parsed) return parsed.error;
        return parsed.ips.length === subnet.totalIps
          ? null
          : adminMessages.swapCountMismatch(parsed.ips.length, subnet.totalIps);
      },
    },
  });

  const close = () => {
    form.reset();
    swap.reset();
    onClose();
  };

  const submit = form.onSubmit(({ endpoints }) => {
    if (!subnet) return;
    swap.mutate(
      { subnet: subnet.subnet, newEndpoints: endpoints.split('\n').filter((line) => line.trim() !== '') },
      {
        onSuccess: (answer) => {
          // The title says it succeeded; the line says what was swapped (the API's message would repeat the title).
          showToast({
            color: 'green',
            title: adminMessages.swapped,
            message: adminMessages.swapDetail(answer.swapped, subnet.subnet, answer.delivered),
          });
          close();
        },
        onError: (error) => showToast({ color: 'red', title: adminMessages.swapFailedToast, message: error.message }),
      },
    );
  });

  return (
    <LazyModal opened={subnet !== null} onClose={close} title={subnet ? `Swap IPs of ${subnet.subnet}` : ''} size="lg">
      {subnet && (
        <Stack gap="sm">
          <Text size="sm">
            Paste {subnet.totalIps} new endpoints, one per line (IP:PORT:USERNAME:PASSWORD). Each IP of the subnet,
            lowest first, takes the endpoint on the same line; customers holding them see the new endpoints at once, and
            burnt IPs become available again.
          </Text>
          <Textarea
            label="New endpoints"
            {...form.getInputProps('endpoints')}
            autosize
            minRows={6}
            maxRows={14}
            data-autofocus
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <FormError message={swap.error?.message ?? null} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => submit()} loading={swap.isPending}>
              Swap IPs
            </Button>
          </Group>
        </Stack>
      )}
    </LazyModal>
  );
}
