import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconClockPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { useNow } from '../../../lib/use-now.ts';
import { useMoveSandboxClock } from '../api/sandbox-clock-api.ts';

const inputValue = (date: Date) => date.toISOString().slice(0, 16);

/**
 * The sandbox's test clock, as Stripe's test clocks: moves time forward and runs the periodic job at that time, so an
 * operator sees a renewal, a failed payment or an expiry happen.
 */
export function SandboxClockCard() {
  const move = useMoveSandboxClock();
  const now = useNow();
  const [value, setValue] = useState(() => inputValue(new Date(now + 31 * 86_400_000)));
  const report = move.data;
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Sandbox test clock
        </Title>
        <Text size="sm" c="dimmed">
          Payments go to the sandbox provider. Move its clock forward to run renewals, failed payments, grace periods,
          expiries and reminders at that time. Time only moves forward.
        </Text>
        <Group align="flex-end" gap="sm">
          <TextInput
            type="datetime-local"
            label="Move the clock to (UTC)"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
          />
          <Button
            leftSection={<IconClockPlay size={16} aria-hidden />}
            loading={move.isPending}
            onClick={() => move.mutate(new Date(`${value}:00Z`).toISOString())}
          >
            Move clock and run jobs
          </Button>
        </Group>
        <FormError message={move.error?.message ?? null} />
        {report && (
          <Alert color="green" variant="light" title={`Clock at ${report.now}`}>
            {report.renewed} renewed, {report.failed} failed, {report.expired} expired, {report.reminded} reminded,{' '}
            {report.emailsSent} e-mails sent, {report.abandonedRemoved} unpaid checkouts older than a week removed.
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
