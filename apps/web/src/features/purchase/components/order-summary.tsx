import { Alert, Button, Card, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { COUPON_CODE_MAX, checkoutMessages, formatUsd, PRODUCTS, plural, unitLabel } from '@storefront/contract';
import { IconClock } from '@tabler/icons-react';
import { bundlePrice, exceedsStock, type ProductOffer } from '../purchase-model.ts';

interface OrderSummaryProps {
  offer: ProductOffer | undefined;
  quantity: number;
  coupon: string;
  onCouponChange: (value: string) => void;
  submitting: boolean;
  onCheckout: () => void;
  /** The prices could not be loaded: nothing can be bought (spec section 2 'Purchase'). */
  pricingError: boolean;
}

/** The sticky Order Summary: what is chosen, its price, the coupon, and Checkout. */
export function OrderSummary({
  offer,
  quantity,
  coupon,
  onCouponChange,
  submitting,
  onCheckout,
  pricingError,
}: OrderSummaryProps) {
  const product = offer && PRODUCTS[offer.productId];
  const unit = product?.unit === 'gb' ? 'GB' : plural(quantity, 'IP', 'IPs');
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="order-summary">
      <Stack gap="sm">
        <Title order={2} size="h4" id="order-summary">
          Order Summary
        </Title>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            Product
          </Text>
          <Text size="sm" fw={600}>
            {product?.label ?? 'Not selected'}
          </Text>
        </Group>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            Quantity
          </Text>
          <Text size="sm" fw={600}>
            {quantity > 0 ? `${quantity.toLocaleString('en-US')} ${unit}` : 'Not selected'}
          </Text>
        </Group>
        {offer && !offer.pricingError && (
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Unit price
            </Text>
            <Text size="sm">
              {formatUsd(offer.price)} {unitLabel(offer.productId)}
            </Text>
          </Group>
        )}
        <Divider />
        <Group justify="space-between" align="baseline">
          <Text fw={700}>Total</Text>
          <Text fw={800} fz="xl" data-testid="order-total">
            {offer && !offer.pricingError && quantity > 0 ? formatUsd(bundlePrice(offer.price, quantity)) : '—'}
          </Text>
        </Group>
        {product?.unit === 'ip_month' && quantity > 0 && (
          <Text size="xs" c="dimmed">
            Billed monthly; cancel any time, the proxies stay until the end of the paid month.
          </Text>
        )}
        {offer && exceedsStock(quantity, offer.stock) && (
          <Alert color="yellow" variant="light" icon={<IconClock size={16} aria-hidden />} p="xs">
            <Text size="sm">{checkoutMessages.deliveryNotice}</Text>
          </Alert>
        )}
        <TextInput
          label="Coupon code"
          placeholder="Optional"
          value={coupon}
          maxLength={COUPON_CODE_MAX + 10}
          onChange={(event) => onCouponChange(event.currentTarget.value)}
          description="Discounts are applied on the payment page."
        />
        <Button
          size="md"
          fullWidth
          onClick={onCheckout}
          loading={submitting}
          disabled={pricingError || offer?.pricingError || (offer !== undefined && !offer.enabled)}
        >
          {pricingError || offer?.pricingError ? checkoutMessages.pricingErrorButton : 'Checkout'}
        </Button>
      </Stack>
    </Card>
  );
}
