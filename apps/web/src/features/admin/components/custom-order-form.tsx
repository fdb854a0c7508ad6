import { Alert, Button, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { CUSTOM_ORDER_MAX, customCheckoutRequestSchema, customOrderMessages } from '@storefront/contract';
import { IconCopy } from '@tabler/icons-react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { LIST_IN_MAIN } from '../../../components/list-in-main.ts';
import type { useCreateCustomOrder } from '../api/custom-orders-api.ts';

interface Values {
  userId: string;
  productId: string | null;
  quantity: string | number;
  coupon: string;
}

const toRequest = ({ userId, quantity, coupon }: Values) => ({
  userId,
  quantity: typeof quantity === 'number' ? quantity : Number.NaN,
  ...(coupon.trim() && { coupon: coupon.trim() }),
});

/** The contract's schema, the server's own check, run on the request the form would send. */
const validateRequest = schemaResolver(customCheckoutRequestSchema, { sync: true });

/** Spec order: the customer, then the type, then the quantity and the coupon. */
function validate(values: Values) {
  const problems = validateRequest(toRequest(values));
  const ordered = {
    userId: problems.userId,
    productId: values.productId ? undefined : customOrderMessages.selectType,
    quantity: problems.quantity,
    coupon: problems.coupon,
  };
  return Object.fromEntries(Object.entries(ordered).filter(([, problem]) => problem !== undefined));
}

/** The Create Custom Order form: PK1 ISP is the only type, 1 to 1000 IPs, an optional coupon. */
export function CustomOrderForm({
  userId,
  create,
}: {
  userId: string | null;
  /** Held by the caller: this chunk brings only the form and its schema, not the console's API. */
  create: ReturnType<typeof useCreateCustomOrder>;
}) {
  const form = useForm<Values, ReturnType<typeof toRequest>>({
    initialValues: { userId: userId ?? '', productId: 'pk1_isp_proxies', quantity: 25, coupon: '' },
    // One problem at a time, the first of these, under the fields until the link is asked for again.
    clearInputErrorOnChange: false,
    validate,
    transformValues: toRequest,
  });
  const problem = Object.values(form.errors)[0];
  const submit = form.onSubmit((request) => create.mutate(request));
  const field = (path: 'productId' | 'quantity' | 'coupon') => form.getInputProps(path, { withError: false });
  return (
    <Stack gap="sm" pt="sm">
      <Select
        label="Proxy type"
        data={[{ value: 'pk1_isp_proxies', label: 'PK1 ISP Proxies' }]}
        {...field('productId')}
        allowDeselect={false}
        comboboxProps={LIST_IN_MAIN}
      />
      <NumberInput label="Quantity (IPs)" min={1} max={CUSTOM_ORDER_MAX} allowDecimal={false} {...field('quantity')} />
      <TextInput label="Coupon (optional)" maxLength={15} {...field('coupon')} />
      {problem && (
        <Text c="red" size="sm" role="alert">
          {problem}
        </Text>
      )}
      <FormError message={create.error?.message ?? null} />
      {create.data && (
        <Alert color="green" variant="light" title="Payment link created">
          <Stack gap={6}>
            <Text size="sm">Send this link to the customer; they pay it signed in as themselves.</Text>
            <Group gap="xs" wrap="nowrap">
              <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {create.data.checkoutUrl}
              </Text>
              <CopyButton value={create.data.checkoutUrl}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy} leftSection={<IconCopy size={14} aria-hidden />}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <Group>
        <Button onClick={() => submit()} loading={create.isPending}>
          Create payment link
        </Button>
      </Group>
    </Stack>
  );
}
