import { Badge, Button, List, SimpleGrid, Text, Title } from '@mantine/core';
import { formatUsd, PRODUCT_IDS, PRODUCTS, type ProductId, paths, planForProduct } from '@storefront/contract';
import { IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { usePricing } from '../../../lib/queries/pricing.ts';
import { sectionIds } from '../scroll-to-section.ts';
import classes from './landing.module.css';
import { LandingSection } from './landing-section.tsx';

const highlights: Record<ProductId, { tagline: string; points: string[] }> = {
  isp_proxies: {
    tagline: 'Static and dedicated',
    points: ['1 dedicated IP each', 'Unlimited bandwidth', 'Renews monthly, cancel any time'],
  },
  pk1_isp_proxies: {
    tagline: 'Retailer-optimised',
    points: ['1 dedicated IP each', 'Tuned for major retailers', 'Renews monthly, cancel any time'],
  },
  residential_proxies: {
    tagline: 'Rotating, pay as you use',
    points: ['Real residential IPs', 'Country and sticky-session targeting', 'Data never expires'],
  },
};

export function ProductsSection() {
  const pricing = usePricing();
  const priceOf = (id: ProductId) => {
    const plan = pricing.data ? planForProduct(pricing.data.plans, id) : undefined;
    return plan?.price ?? PRODUCTS[id].defaultPrice;
  };

  return (
    <LandingSection
      name="products"
      title="Our Products"
      subtitle="Three proxy lines, one dashboard."
      anchor={sectionIds.products}
    >
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        {PRODUCT_IDS.map((id) => {
          const product = PRODUCTS[id];
          const price = formatUsd(priceOf(id));
          return (
            <article key={id} className={classes.card} data-testid={`product-${id}`}>
              <Badge variant="light" w="fit-content">
                {highlights[id].tagline}
              </Badge>
              <Title order={3} size="h3" mt="md" className={classes.cardTitle}>
                {product.label}
              </Title>
              <Text size="sm" className={classes.muted} mt={4}>
                {product.description}
              </Text>
              <Text mt="md" fw={600} c="white">
                {product.unit === 'gb'
                  ? `${price} per GB`
                  : id === 'isp_proxies'
                    ? `from ${price} per month`
                    : `${price} per month`}
              </Text>
              <List
                mt="md"
                spacing={6}
                size="sm"
                c="gray.4"
                icon={<IconCheck size={16} color="#74c0fc" aria-hidden />}
                style={{ flexGrow: 1 }}
              >
                {highlights[id].points.map((point) => (
                  <List.Item key={point}>{point}</List.Item>
                ))}
              </List>
              <Button component={Link} to={paths.signup} mt="lg" fullWidth>
                Purchase Proxies
              </Button>
            </article>
          );
        })}
      </SimpleGrid>
    </LandingSection>
  );
}
