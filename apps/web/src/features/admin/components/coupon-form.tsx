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
import { type CreateCouponRequest, couponMessages, createCouponRequestSchema } from '@storefront/contract';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { useCouponOptions, useCreateCoupon } from '../api/coupons-api.ts';

type DiscountType = 'percent_off' | 'amount_off';
type Duration = 'once' | 'repeating' | 'forever';

const EMPTY = {
  code: '',
  name: '',
  discountType: 'percent_off' as DiscountType,
  percentOff: '' as string | number,
  amountOff: '' as string | number,
  duration: 'once' as Duration,
  durationInMonths: '' as string | number,
  products: [] as string[],
  maxRedemptions: '' as string | number,
};
const numberOrNull = (value: string | number) => (typeof value === 'number' ? value : null);

/** The Add Coupon form (spec section 5 'Coupon form'); the amount is typed in dollars and sent in cents. */
export function CouponForm({ onDone }: { onDone: () => void }) {
  const options = useCouponOptions();
  const create = useCreateCoupon();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState(false);
  const set = <K extends keyof typeof EMPTY>(key: K, value: (typeof EMPTY)[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const payload = (): CreateCouponRequest => ({
    code: form.code,
    name: form.name,
    duration: form.duration,
    discountType: form.discountType,
    appliesToProducts: form.products as CreateCouponRequest['appliesToProducts'],
    durationInMonths: form.duration === 'repeating' ? numberOrNull(form.durationInMonths) : null,
    maxRedemptions: numberOrNull(form.maxRedemptions),
    ...(form.discountType === 'percent_off'
      ? { percentOff: numberOrNull(form.percentOff) }
      : { amountOff: typeof form.amountOff === 'number' ? Math.round(form.amountOff * 100) : null }),
  });

  const submit = () => {
    const body = payload();
    const checked = createCouponRequestSchema.safeParse(body);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? 'form');
        found[field] ??= issue.message;
      }
      return setErrors(found);
    }
    setErrors({});
    create.mutate(body, { onSuccess: () => setCreated(true) });
  };

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
              setForm(EMPTY);
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
    <Stack gap="sm">
      <TextInput
        label="Coupon code"
        description="What customers type, at most 15 characters"
        value={form.code}
        onChange={(event) => set('code', event.currentTarget.value.toUpperCase())}
        error={errors.code}
        required
      />
      <TextInput
        label="Name"
        value={form.name}
        onChange={(event) => set('name', event.currentTarget.value)}
        error={errors.name}
        required
      />
      <SegmentedControl
        value={form.discountType}
        onChange={(value) => {
          const type = value as DiscountType;
          // Spec section 4: 'forever' is not offered for fixed amounts; it falls back to once.
          setForm((current) => ({
            ...current,
            discountType: type,
            duration: type === 'amount_off' && current.duration === 'forever' ? 'once' : current.duration,
          }));
        }}
        data={[
          { value: 'percent_off', label: 'Percent off' },
          { value: 'amount_off', label: 'Amount off' },
        ]}
        aria-label="Discount type"
      />
      {form.discountType === 'percent_off' ? (
        <NumberInput
          label="Percent off"
          min={1}
          max={100}
          suffix="%"
          value={form.percentOff}
          onChange={(value) => set('percentOff', value)}
          error={errors.percentOff}
        />
      ) : (
        <NumberInput
          label="Amount off (US dollars)"
          min={0.01}
          decimalScale={2}
          prefix="$"
          value={form.amountOff}
          onChange={(value) => set('amountOff', value)}
          error={errors.amountOff}
        />
      )}
      <Select
        label="Duration"
        data={(options.data?.durationOptions ?? [])
          .filter((option) => form.discountType === 'percent_off' || option.value !== 'forever')
          .map((option) => ({ value: option.value, label: option.label }))}
        value={form.duration}
        onChange={(value) => set('duration', (value ?? 'once') as Duration)}
        allowDeselect={false}
        error={errors.duration}
      />
      {form.duration === 'repeating' && (
        <NumberInput
          label="Duration in months"
          min={1}
          allowDecimal={false}
          value={form.durationInMonths}
          onChange={(value) => set('durationInMonths', value)}
          error={errors.durationInMonths}
        />
      )}
      <Checkbox.Group
        label="Applies to"
        value={form.products}
        onChange={(value) => set('products', value)}
        error={errors.appliesToProducts}
      >
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
        value={form.maxRedemptions}
        onChange={(value) => set('maxRedemptions', value)}
        error={errors.maxRedemptions}
      />
      <FormError message={options.error?.message ?? null} />
      <FormError message={create.error?.message ?? null} />
      <Group justify="flex-end">
        <Button onClick={submit} loading={create.isPending}>
          Create Coupon
        </Button>
      </Group>
    </Stack>
  );
}
