import type { Config } from '../config.ts';
import { createSandboxProvider, type SandboxProvider } from './sandbox-provider.ts';
import { createStripeProvider } from './stripe-provider.ts';

/** Stripe when STRIPE_SECRET_KEY is set, otherwise the sandbox (ARCHITECTURE section 5). */
export function createPaymentProvider(
  config: Config,
  authSecret: string,
): SandboxProvider | ReturnType<typeof createStripeProvider> {
  const payments = config.payments;
  if (payments.provider === 'stripe') {
    return createStripeProvider({
      secretKey: payments.secretKey,
      webhookSecret: payments.webhookSecret,
      apiUrl: payments.apiUrl,
      pricesCents: config.pricesCents,
      currency: payments.currency,
      waitMs: payments.waitSeconds * 1000,
    });
  }
  return createSandboxProvider({ appUrl: config.appUrl, authSecret });
}
