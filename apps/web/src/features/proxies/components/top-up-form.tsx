import { Button, Group, NativeSelect, NumberInput, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  formatMoney,
  TOP_UP_CAP_DOLLARS_MAX,
  TOP_UP_GB_MAX,
  TOP_UP_GB_MIN,
  TOP_UP_THRESHOLD_GB_MAX,
  TOP_UPS_PER_DAY_MAX,
  type TopUp,
  type TopUpSettingsRequest,
  topUpMessages,
  topUpSettingsRequestSchema,
} from '@storefront/contract';
import { useEffect } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { showToast } from '../../../lib/toasts.ts';
import { useSaveTopUp } from '../api/top-up-api.ts';

/** The request's fields by the request's names (so the schema's problems land on them); a cleared number is ''. */
interface Values {
  enabled: boolean;
  thresholdGb: number | string;
  amountGb: number | string;
  monthlyCapDollars: number | string;
  maxPerDay: number;
}

const perDayChoices = Array.from({ length: TOP_UPS_PER_DAY_MAX }, (_, index) => String(index + 1));

const valuesOf = (topUp: TopUp): Values => ({
  enabled: topUp.enabled,
  thresholdGb: topUp.thresholdGb,
  amountGb: topUp.amountGb,
  monthlyCapDollars: topUp.monthlyCapDollars,
  maxPerDay: topUp.maxPerDay,
});

/** The contract's schema, the server's own check, with its words. */
const validateRequest = schemaResolver(topUpSettingsRequestSchema, { sync: true });

/**
 * The settings of automatic top-up: on or off, the threshold, the amount, the caps, what one top-up costs; saved
 * whole. Split off with its schema, loaded when the card shows.
 */
export function TopUpForm({ topUp }: { topUp: TopUp }) {
  const save = useSaveTopUp();
  const form = useForm<Values>({
    initialValues: valuesOf(topUp),
    validate: (values) => {
      const errors = validateRequest(values);
      if (values.enabled && !topUp.card) errors.enabled = topUpMessages.needCard;
      // The server turns top-up on only with a cap that pays for one top-up at least: said here before it is sent.
      const { amountGb, monthlyCapDollars } = values;
      if (values.enabled && !errors.amountGb && !errors.monthlyCapDollars) {
        const price = Number(amountGb) * topUp.unitPriceCents;
        if (Number(monthlyCapDollars) * 100 < price)
          errors.monthlyCapDollars = topUpMessages.capBelowOneTopUp(
            formatMoney(Number(monthlyCapDollars) * 100, topUp.currency),
            formatMoney(price, topUp.currency),
          );
      }
      return errors;
    },
  });

  // What the server holds changed (a save, the card removed, top-up switched off after failed payments): the form
  // shows it, without being drawn afresh, so that the focus stays where it is.
  const saved = JSON.stringify(valuesOf(topUp));
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the saved settings change only
  useEffect(() => {
    const values = JSON.parse(saved) as Values;
    form.setValues(values);
    form.resetDirty(values);
  }, [saved]);

  const values = form.values;
  const amount = typeof values.amountGb === 'number' ? values.amountGb : topUp.amountGb;
  // Said at once rather than when Save is pressed: the switch cannot stay on without a card.
  const needCard = values.enabled && !topUp.card;

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((request) =>
        save.mutate(request as TopUpSettingsRequest, {
          onSuccess: () => showToast({ color: 'green', message: topUpMessages.saved }),
        }),
      )}
    >
      <Stack gap="md">
        <Switch
          label="Automatic top-up"
          description="Buys data on your saved card when what is left falls under your threshold."
          {...form.getInputProps('enabled', { type: 'checkbox' })}
          error={needCard ? topUpMessages.needCard : form.errors.enabled}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <NumberInput
            label="When data left falls under (GB)"
            min={1}
            max={TOP_UP_THRESHOLD_GB_MAX}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            thousandSeparator=","
            {...form.getInputProps('thresholdGb')}
          />
          <NumberInput
            label="Buy (GB)"
            min={TOP_UP_GB_MIN}
            max={TOP_UP_GB_MAX}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            thousandSeparator=","
            {...form.getInputProps('amountGb')}
          />
          <NumberInput
            label="Monthly cap ($)"
            min={1}
            max={TOP_UP_CAP_DOLLARS_MAX}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            thousandSeparator=","
            {...form.getInputProps('monthlyCapDollars')}
          />
          <NativeSelect
            label="Top-ups a day at most"
            data={perDayChoices}
            {...form.getInputProps('maxPerDay')}
            value={String(values.maxPerDay)}
            onChange={(event) => form.setFieldValue('maxPerDay', Number(event.currentTarget.value))}
          />
        </SimpleGrid>
        <Text size="sm" data-testid="top-up-cost">
          One top-up: {amount.toLocaleString('en-US')} GB for{' '}
          <strong>{formatMoney(amount * topUp.unitPriceCents, topUp.currency)}</strong> (
          {formatMoney(topUp.unitPriceCents, topUp.currency)} a GB; coupons do not apply).
        </Text>
        <FormError message={save.error?.message ?? null} />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
