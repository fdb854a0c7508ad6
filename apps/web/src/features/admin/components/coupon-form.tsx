import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type CreateCouponRequest, couponMessages, createCouponRequestSchema } from '@storefront/contract';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { useCouponOptions, useCreateCoupon } from '../api/coupons-api.ts';

type DiscountType = 'percent_off' | 'amount_off';
type Duration = 'once' | 'repeating' | 'forever';

/** What the form holds: the payload's fields by the payload's names (so the schema's errors land on them). */
const EMPTY = {
  code: '',
  name: '',
  discountType: 'percent_off' as DiscountType,
  percentOff: '' as string | number,
  /** In dollars, as typed; sent in cents. */
  amountOff: '' as string | number,
  duration: 'once' as Duration,
  durationInMonths: '' as string | number,
  appliesToProducts: [] as string[],
  maxRedemptions: '' as string | number,
};
type CouponFormValues = typeof EMPTY;

const numberOrNull = (value: string | number) => (typeof value === 'number' ? value : null);

/** The create coupon payload (spec section 3) from what the form holds; the amount goes from dollars to cents. */
function toPayload(values: CouponFormValues): CreateCouponRequest {
  return {
    code: values.code,
    name: values.name,
    duration: values.duration,
    discountType: values.discountType,
    appliesToProducts: values.appliesToProducts as CreateCouponRequest['appliesToProducts'],
    durationInMonths: values.duration === 'repeating' ? numberOrNull(values.durationInMonths) : null,
    maxRedemptions: numberOrNull(values.maxRedemptions),
    ...(values.discountType === 'percent_off'
      ? { percentOff: numberOrNull(values.percentOff) }
      : { amountOff: typeof values.amountOff === 'number' ? Math.round(values.amountOff * 100) : null }),
  };
}

/** The contract's schema, the server's own check, run on the payload the form would send (spec section 5 words). */
const validatePayload = schemaResolver(createCouponRequestSchema, { sync: true });

/** The Add Coupon form (spec section 5 'Coupon form'); the amount is typed in dollars and sent in cents. */
export function CouponForm({ onDone }: { onDone: () => void }) {
  const options = useCouponOptions();
  const create = useCreateCoupon();
  const [created, setCreated] = useState(false);
  const form = useForm({
    initialValues: EMPTY,
    validate: (values) => validatePayload(toPayload(values)),
    transformValues: toPayload,
  });
  const values = form.getValues();

  if (created) {
    return (
      <Stack align="center" gap="md" py="md">
        <ThemeIcon size={48} radius="xl" color="green" variant="light">
          <IconCheck size={28} aria-hidden />
        </ThemeIcon>
        <Text fw={700} size="lg">
          {couponMessages.created}
        </Text>
        <Group>
          <Button variant="default" onClick={onDone}>
            Done
          </Button>
          <Button
            onClick={() => {
              form.reset();
              setCreated(false);
              create.reset();
            }}
          >
            Create Another Coupon
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((payload) => create.mutate(payload, { onSuccess: () => setCreated(true) }))}
    >
      <Stack gap="sm">
        <TextInput
          label="Coupon code"
          description="What customers type, at most 15 characters"
          {...form.getInputProps('code')}
          onChange={(event) => form.setFieldValue('code', event.currentTarget.value.toUpperCase())}
          required
        />
        <TextInput label="Name" {...form.getInputProps('name')} required />
        <SegmentedControl
          value={values.discountType}
          onChange={(value) => {
            const type = value as DiscountType;
            // Spec section 4: 'forever' is not offered for fixed amounts; it falls back to once.
            form.setValues({
              discountType: type,
              duration: type === 'amount_off' && values.duration === 'forever' ? 'once' : values.duration,
            });
          }}
          data={[
            { value: 'percent_off', label: 'Percent off' },
            { value: 'amount_off', label: 'Amount off' },
          ]}
          aria-label="Discount type"
        />
        {values.discountType === 'percent_off' ? (
          <NumberInput label="Percent off" min={1} max={100} suffix="%" {...form.getInputProps('percentOff')} />
        ) : (
          <NumberInput
            label="Amount off (US dollars)"
            min={0.01}
            decimalScale={2}
            prefix="$"
            {...form.getInputProps('amountOff')}
          />
        )}
        <Select
          label="Duration"
          data={(options.data?.durationOptions ?? [])
            .filter((option) => values.discountType === 'percent_off' || option.value !== 'forever')
            .map((option) => ({ value: option.value, label: option.label }))}
          {...form.getInputProps('duration')}
          onChange={(value) => form.setFieldValue('duration', (value ?? 'once') as Duration)}
          allowDeselect={false}
          // The options open in the dialog, under the field, not at the end of the document outside the dialog; above
          // the dialog's sticky title (z-index 1000) should the dialog scroll while they are open.
          comboboxProps={{ withinPortal: false, zIndex: 1001 }}
        />
        {values.duration === 'repeating' && (
          <NumberInput
            label="Duration in months"
            min={1}
            allowDecimal={false}
            {...form.getInputProps('durationInMonths')}
          />
        )}
        <Checkbox.Group label="Applies to" {...form.getInputProps('appliesToProducts')}>
          <Stack gap={6} mt={6}>
            {(options.data?.products ?? []).map((product) => (
              <Checkbox key={product.id} value={product.id} label={product.name} />
            ))}
          </Stack>
        </Checkbox.Group>
        <NumberInput
          label="Max redemptions"
          description="Leave blank for unlimited"
          min={1}
          allowDecimal={false}
          {...form.getInputProps('maxRedemptions')}
        />
        <FormError message={options.error?.message ?? null} />
        <FormError message={create.error?.message ?? null} />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Create Coupon
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
