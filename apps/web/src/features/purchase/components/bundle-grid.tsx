import { Card, SimpleGrid, Text } from '@mantine/core';
import { formatUsd, PRODUCTS, type ProductId } from '@storefront/contract';
import { type BundleChoice, bundlePrice } from '../purchase-model.ts';
import classes from './purchase.module.css';

interface BundleGridProps {
  productId: ProductId;
  unitPrice: number;
  bundles: BundleChoice[];
  selected: BundleChoice | null;
  onSelect: (bundle: BundleChoice) => void;
}

/** The bundles of spec section 9 still in stock, and Custom where the product has it. */
export function BundleGrid({ productId, unitPrice, bundles, selected, onSelect }: BundleGridProps) {
  const unit = PRODUCTS[productId].unit === 'gb' ? 'GB' : 'IPs';
  if (bundles.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Every bundle of this product is out of stock right now. New stock arrives regularly; open a ticket in our
        community for a larger order.
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 2, xs: 3, sm: 4 }} role="group" aria-label="Bundles">
      {bundles.map((bundle) => (
        <Card
          component="button"
          type="button"
          key={bundle}
          withBorder
          padding="sm"
          className={classes.choice}
          data-selected={selected === bundle || undefined}
          aria-pressed={selected === bundle}
          onClick={() => onSelect(bundle)}
        >
          {bundle === 'custom' ? (
            <>
              <Text fw={700}>Custom</Text>
              <Text size="xs" c="dimmed">
                Any amount
              </Text>
            </>
          ) : (
            <>
              <Text fw={700}>
                {bundle} {unit}
              </Text>
              <Text size="xs" c="dimmed">
                {formatUsd(bundlePrice(unitPrice, bundle))}
              </Text>
            </>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
