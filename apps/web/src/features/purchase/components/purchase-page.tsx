import { Alert, Button, Grid, Group, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  CUSTOM_AMOUNT_MAX,
  CUSTOM_AMOUNT_MIN,
  checkoutMessages,
  PRODUCT_IDS,
  PRODUCTS,
  type ProductId,
  paths,
} from '@storefront/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { type FirstReads, read } from '../../../lib/first-read.ts';
import { PAGE_HEADINGS } from '../../../lib/page-headings.ts';
import { featuresKeys } from '../../../lib/queries/features.ts';
import { parsePricing, pricingKeys, usePricing } from '../../../lib/queries/pricing.ts';
import { hideToast, prepareToasts, showToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useFeatures, useStartCheckout } from '../api/purchase-api.ts';
import {
  type BundleChoice,
  couponToSend,
  isCustomAmount,
  parseCustomAmount,
  productOffer,
  visibleBundles,
} from '../purchase-model.ts';
import { BundleGrid } from './bundle-grid.tsx';
import { OrderSummary } from './order-summary.tsx';
import { ProductCard } from './product-card.tsx';
import classes from './purchase.module.css';

/** The id of the 'Selection Required' toast. */
const SELECTION_TOAST = 'selection-required';

/**
 * How long 'Checkout Started' shows before the payment page opens (spec section 4 'Checkout'): long enough to read its
 * title and line at an ordinary reading pace, after it has slid in.
 */
export const CHECKOUT_NOTICE_MS = 2000;

/** What the server reads to draw this page for its reader (the same keys as the hooks below). */
export const firstReads: FirstReads = () => [
  read('getPricing', pricingKeys.all, { keep: parsePricing }),
  read('listFeatures', featuresKeys.public()),
];

/** /dashboard/purchase (spec section 2 'Purchase'): product, bundle, coupon, then the provider's payment page. */
export function PurchasePage() {
  usePageTitle('Purchase Proxies');
  const pricing = usePricing();
  const features = useFeatures();
  const checkout = useStartCheckout();
  const [productId, setProductId] = useState<ProductId | null>(null);
  const [bundle, setBundle] = useState<BundleChoice | null>(null);
  // What the custom amount field holds, as typed: the summary reads the same value, so the two always agree.
  const [customInput, setCustomInput] = useState<string | number>(CUSTOM_AMOUNT_MIN);
  const [coupon, setCoupon] = useState('');
  // Set from the moment a checkout opened until the browser leaves: Checkout stays busy, so no second checkout starts
  // (and holds a coupon's use) while the notice is read.
  const [redirecting, setRedirecting] = useState(false);

  const offers = PRODUCT_IDS.map((id) => productOffer(id, pricing.data?.plans, pricing.isError, features.data));
  const offer = productId ? offers.find((candidate) => candidate.productId === productId) : undefined;
  // The summary uses the field's value only when it can be bought (1 to 10,000): while the field holds something else
  // (0, 20000, nothing) the summary has no amount, and leaving the field makes it one (spec section 5) on both sides.
  const customAmount = isCustomAmount(customInput) ? Number(customInput) : 0;
  const quantity = bundle === 'custom' ? customAmount : (bundle ?? 0);

  const chooseProduct = (id: ProductId) => {
    setProductId(id);
    setBundle(null);
  };

  // 'Selection Required' goes as soon as there is a selection: it must not stand beside a filled-in summary. One id
  // for it (Mantine shows a toast with an id on screen once), so that hiding it hides every press's.
  const chosen = productId !== null && bundle !== null && quantity >= CUSTOM_AMOUNT_MIN;
  useEffect(() => {
    if (chosen) hideToast(SELECTION_TOAST);
  }, [chosen]);

  const submit = () => {
    if (redirecting) return;
    if (!productId || bundle === null || !chosen) {
      showToast({
        id: SELECTION_TOAST,
        color: 'red',
        title: 'Selection Required',
        message: 'Please select a proxy type and bundle before checkout.',
      });
      return;
    }
    // The toast host loads while the checkout is made, so that 'Checkout Started' shows for all its time.
    prepareToasts();
    checkout.mutate(
      { productId, quantity, coupon: couponToSend(coupon) },
      {
        onSuccess: (checkoutUrl) => {
          setRedirecting(true);
          showToast({
            color: 'green',
            title: checkoutMessages.checkoutStarted,
            message: 'Taking you to the secure payment page…',
          });
          setTimeout(() => window.location.assign(checkoutUrl), CHECKOUT_NOTICE_MS);
        },
        onError: (error) => {
          showToast({
            color: 'red',
            title: checkoutMessages.checkoutError,
            message: error.message || checkoutMessages.checkoutFallback,
          });
        },
      },
    );
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {PAGE_HEADINGS[paths.purchase].title}
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          {PAGE_HEADINGS[paths.purchase].intro}
        </Text>
      </div>

      {pricing.isError && (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">Error loading pricing: {pricing.error.message}</Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => void pricing.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      )}

      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <section aria-labelledby="choose-type">
              <Title order={2} size="h4" id="choose-type" mb="sm">
                1. Proxy type
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                {offers.map((candidate) => (
                  <ProductCard
                    key={candidate.productId}
                    offer={candidate}
                    loading={pricing.isPending}
                    selected={candidate.productId === productId}
                    onSelect={() => chooseProduct(candidate.productId)}
                  />
                ))}
              </SimpleGrid>
            </section>

            {offer && (
              <section aria-labelledby="choose-bundle">
                <Title order={2} size="h4" id="choose-bundle" mb="sm">
                  2. Bundle
                </Title>
                <BundleGrid
                  productId={offer.productId}
                  unitPrice={offer.price}
                  bundles={visibleBundles(offer.productId, offer.stock)}
                  selected={bundle}
                  onSelect={setBundle}
                />
                {bundle === 'custom' && (
                  <NumberInput
                    mt="md"
                    maw={260}
                    label={`Custom amount (${PRODUCTS[offer.productId].unit === 'gb' ? 'GB' : 'IPs'})`}
                    description={`${CUSTOM_AMOUNT_MIN} to ${CUSTOM_AMOUNT_MAX.toLocaleString('en-US')}`}
                    min={CUSTOM_AMOUNT_MIN}
                    max={CUSTOM_AMOUNT_MAX}
                    allowDecimal={false}
                    allowNegative={false}
                    // Clamped when the field is left; the summary never uses an amount the field does not show (it
                    // used 1 while the field showed 0).
                    clampBehavior="blur"
                    value={customInput}
                    onChange={setCustomInput}
                    onBlur={() => setCustomInput(parseCustomAmount(customInput))}
                  />
                )}
              </section>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }} className={classes.summaryColumn}>
          <OrderSummary
            pricingError={pricing.isError}
            offer={offer}
            quantity={quantity}
            coupon={coupon}
            onCouponChange={setCoupon}
            submitting={checkout.isPending || redirecting}
            onCheckout={submit}
          />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
