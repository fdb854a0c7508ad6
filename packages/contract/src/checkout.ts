import { CUSTOM_AMOUNT_MAX, CUSTOM_AMOUNT_MIN, PRODUCTS, type ProductId } from './products.ts';

/** The longest promo code a customer can type (spec section 9: codes of at most 15 characters). */
export const COUPON_CODE_MAX = 15;

export const checkoutMessages = {
  selectionRequired: 'Selection Required: Please select a proxy type and bundle before checkout.',
  checkoutStarted: 'Checkout Started',
  checkoutError: 'Checkout Error',
  checkoutFallback: 'Failed to create checkout session',
  checkoutFailed: 'Checkout Failed: Unable to start checkout. Please try again.',
  deliveryNotice: 'Orders will be delivered within 24 hours',
  pricingUnavailable: 'Pricing unavailable',
  pricingErrorButton: 'Pricing Error - Cannot Checkout',
  unknownProduct: 'This product does not exist. Please choose Elite ISP, PK1 ISP or Residential proxies.',
  productDisabled: (label: string) => `${label} cannot be bought at the moment. Please try again later.`,
  quantityNotWhole: 'The quantity must be a whole number.',
  customAmountRange: `A custom amount must be between ${CUSTOM_AMOUNT_MIN} and ${CUSTOM_AMOUNT_MAX}.`,
  quantityRange: `The quantity must be between ${CUSTOM_AMOUNT_MIN} and ${CUSTOM_AMOUNT_MAX}.`,
  bundleOnly: (label: string, bundles: readonly number[]) =>
    `${label} come in bundles of ${bundles.join(', ')}. Please choose one of them.`,
  couponTooLong: `A coupon code has at most ${COUPON_CODE_MAX} characters.`,
  couponUnknown: 'This coupon code does not exist.',
  couponInactive: 'This coupon code is no longer active.',
  couponExpired: 'This coupon code has expired.',
  couponUsedUp: 'This coupon code has been used the maximum number of times.',
  couponNotForProduct: (label: string) => `This coupon code cannot be used for ${label}.`,
} as const;

/** Checks a quantity against the product's bundles (spec section 9); returns the refusal, or undefined when it is fine. */
export function quantityProblem(productId: ProductId, quantity: number): string | undefined {
  const product = PRODUCTS[productId];
  if (!Number.isInteger(quantity)) return checkoutMessages.quantityNotWhole;
  if (product.allowsCustomAmount) {
    return quantity >= CUSTOM_AMOUNT_MIN && quantity <= CUSTOM_AMOUNT_MAX
      ? undefined
      : checkoutMessages.customAmountRange;
  }
  return product.bundles.includes(quantity) ? undefined : checkoutMessages.bundleOnly(product.label, product.bundles);
}
