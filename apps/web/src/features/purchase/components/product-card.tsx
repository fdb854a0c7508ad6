import { Anchor, Badge, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { checkoutMessages, formatUsd, PRODUCTS, stockLabel, unitLabel } from '@storefront/contract';
import { site } from '../../../config/site.ts';
import type { ProductOffer } from '../purchase-model.ts';
import classes from './purchase.module.css';

interface ProductCardProps {
  offer: ProductOffer;
  loading: boolean;
  selected: boolean;
  onSelect: () => void;
}

/** One product to choose: price, stock, and why it cannot be chosen when it cannot (flag off, no price). */
export function ProductCard({ offer, loading, selected, onSelect }: ProductCardProps) {
  const product = PRODUCTS[offer.productId];
  const disabled = !offer.enabled || offer.pricingError;
  return (
    <div className={classes.product}>
      <Card
        component="button"
        type="button"
        className={classes.choice}
        onClick={onSelect}
        disabled={disabled}
        data-selected={selected || undefined}
        data-disabled={disabled || undefined}
        aria-pressed={selected}
        withBorder
        padding="md"
      >
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={700}>{product.label}</Text>
            {!offer.enabled && (
              <Badge color="gray" variant="light">
                Unavailable
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {product.description}
          </Text>
          {offer.pricingError ? (
            <Text fw={600} c="red">
              {checkoutMessages.pricingUnavailable}
            </Text>
          ) : (
            <Text>
              <Text span fw={800} fz="xl">
                {formatUsd(offer.price)}
              </Text>{' '}
              <Text span size="sm" c="dimmed">
                {unitLabel(offer.productId)}
              </Text>
            </Text>
          )}
          {loading ? (
            <Skeleton h={14} w="70%" />
          ) : (
            offer.stock !== undefined && (
              <Text size="xs" c="dimmed">
                {stockLabel(offer.productId, offer.stock)}
              </Text>
            )
          )}
          {!offer.enabled && (
            <Text size="xs" c="dimmed">
              Purchases of this product are paused at the moment.
            </Text>
          )}
        </Stack>
      </Card>
      {offer.productId === 'pk1_isp_proxies' && (
        <Text size="xs" c="dimmed" px={4}>
          Larger PK1 order?{' '}
          <Anchor href={site.chatCommunityUrl} target="_blank" rel="noopener noreferrer" size="xs">
            Open a ticket in our community
          </Anchor>
        </Text>
      )}
    </div>
  );
}
