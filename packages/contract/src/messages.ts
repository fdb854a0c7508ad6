/** Strings the spec quotes (section 8), defined once. */
export const messages = {
  pricingFetchFailed: 'Failed to fetch pricing items',
  featuresFetchFailed: 'Failed to fetch features',
  notFound: 'Not found',
  internalError: 'Something went wrong on our side. Please try again.',
} as const;
