import { Alert, Button, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import {
  CUSTOM_AMOUNT_MAX,
  formatUsd,
  PRODUCT_IDS,
  PRODUCTS,
  type ProductId,
  paths,
  planForProduct,
  stockLabel,
  unitLabel,
} from '@storefront/contract';
import { Link } from 'react-router';
import { usePricing } from '../../../lib/queries/pricing.ts';
import { sectionIds } from '../scroll-to-section.ts';
import classes from './landing.module.css';
import { LandingSection } from './landing-section.tsx';

function bundleLine(id: ProductId): string {
  const product = PRODUCTS[id];
  const unit = product.unit === 'gb' ? 'GB' : 'IPs';
  const smallest = product.bundles[0];
  const largest = product.bundles[product.bundles.length - 1];
  const custom = product.allowsCustomAmount ? `, or any amount up to ${CUSTOM_AMOUNT_MAX.toLocaleString('en-US')}` : '';
  return `Bundles of ${smallest} to ${largest} ${unit}${custom}`;
}

export function PricingSection() {
  const pricing = usePricing();

  return (
    <LandingSection
      name="pricing"
      title="Simple, Transparent Pricing"
      subtitle="Pay per IP per month or per GB. No setup fees, live stock shown below."
      anchor={sectionIds.pricing}
    >
      {pricing.isError ? (
        <Alert color="red" variant="filled" title="Pricing unavailable" maw={560} mx="auto">
          <Text size="sm">Error loading pricing: {pricing.error.message}</Text>
          <Button mt="sm" size="xs" variant="white" color="red" onClick={() => pricing.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {PRODUCT_IDS.map((id) => {
            const plan = pricing.data ? planForProduct(pricing.data.plans, id) : undefined;
            return (
              <article
                key={id}
                className={`${classes.card} ${id === 'isp_proxies' ? classes.cardFeatured : ''}`}
                data-testid={`plan-${id}`}
              >
                <Title order={3} size="h4" className={classes.cardTitle}>
                  {PRODUCTS[id].label}
                </Title>
                {pricing.isPending ? (
                  <>
                    <Skeleton height={36} width="60%" mt="md" />
                    <Skeleton height={14} width="80%" mt="md" />
                  </>
                ) : (
                  <>
                    <Text className={classes.price} mt="md">
                      <span data-testid="plan-price">{formatUsd(plan?.price ?? PRODUCTS[id].defaultPrice)}</span>{' '}
                      <Text span size="sm" fw={500} className={classes.muted}>
                        {unitLabel(id)}
                      </Text>
                    </Text>
                    <Text size="sm" mt="md" c={plan && plan.stock > 0 ? 'teal.3' : 'yellow.3'} data-testid="plan-stock">
                      {stockLabel(id, plan?.stock ?? 0)}
                    </Text>
                  </>
                )}
                <Text size="sm" className={classes.muted} mt="xs" style={{ flexGrow: 1 }}>
                  {bundleLine(id)}
                </Text>
                <Button component={Link} to={paths.signup} mt="lg" fullWidth>
                  Get Started
                </Button>
              </article>
            );
          })}
        </SimpleGrid>
      )}
    </LandingSection>
  );
}
