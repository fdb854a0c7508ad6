import { createHmac, randomBytes } from 'node:crypto';
import { paths, pathTo, topUpMessages } from '@storefront/contract';
import Stripe from 'stripe';
import { z } from 'zod';
import type { CreatedCheckout, PaidInvoice, PaymentEvent, PaymentProvider } from './provider.ts';
import { assertWebhookNotFromFuture, WEBHOOK_TOLERANCE_SECONDS, WebhookSignatureError } from './provider.ts';

/** The sandbox signs its events the way Stripe does (timestamped HMAC-SHA256), with a secret of this server. */
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';

export const SANDBOX_EVENT_TYPES = { checkoutPaid: 'sandbox.checkout.paid' } as const;

const checkoutPaidData = z.object({
  orderId: z.string(),
  customerEmail: z.string(),
  invoice: z.object({
    id: z.string(),
    hostedUrl: z.string(),
    amountCents: z.number().int(),
    discountCents: z.number().int(),
    currency: z.string(),
    paidAt: z.string(),
  }),
  periodEnd: z.string().nullable(),
});
type CheckoutPaidData = z.infer<typeof checkoutPaidData>;

const sandboxEvent = z.object({ id: z.string(), type: z.string(), data: z.unknown() });

/** The sandbox's invoices: a new id and its printable page. */
export interface SandboxInvoices {
  newInvoiceId(): string;
  invoiceUrl(invoiceId: string): string;
}

// Letters and digits only (hex): the last 12 characters make a clean payment reference in the order history.
const sandboxToken = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Invoice ids (the contract's SANDBOX_ID_PATTERNS.invoice, packages/contract/src/api/sandbox.ts) and their pages under APP_URL. */
export function createSandboxInvoices(appUrl: string): SandboxInvoices {
  return {
    newInvoiceId: () => sandboxToken('in_sandbox'),
    invoiceUrl: (invoiceId) => `${appUrl}${pathTo(paths.sandboxInvoice, { id: invoiceId })}`,
  };
}

/** The sandbox's saved cards: its test card and its declining card, as the card page saves them. */
export const SANDBOX_CARDS = {
  ok: { paymentMethodId: 'pm_sandbox_ok', label: 'Sandbox test card •••• 4242' },
  declined: { paymentMethodId: 'pm_sandbox_declined', label: 'Sandbox declining card •••• 0002' },
} as const;

export interface SandboxProvider extends PaymentProvider, SandboxInvoices {
  readonly name: 'sandbox';
  /** A signed event, as the sandbox's payment page emits it: the raw body and its signature header. */
  signEvent(type: string, data: CheckoutPaidData): { rawBody: Buffer; signature: string };
}

/** The secret the sandbox signs its events with, derived from AUTH_SECRET. */
export function sandboxWebhookSecret(authSecret: string): string {
  return `whsec_${createHmac('sha256', authSecret).update('sandbox-webhooks').digest('base64url')}`;
}

/**
 * The embedded default, like Stripe's test mode: a hosted payment page of our own under /sandbox, where no real money moves.
 * Its events go through the same verify, de-duplicate and handle path as Stripe's.
 */
export function createSandboxProvider(options: { appUrl: string; authSecret: string }): SandboxProvider {
  const secret = sandboxWebhookSecret(options.authSecret);
  const invoices = createSandboxInvoices(options.appUrl);

  return {
    name: 'sandbox',
    async prepare() {},

    async createCheckout(): Promise<CreatedCheckout> {
      const checkoutId = sandboxToken('cs_sandbox');
      return { checkoutId, url: `${options.appUrl}${pathTo(paths.sandboxCheckout, { id: checkoutId })}` };
    },

    // The sandbox's renewals are the periodic job's: a cancelled order is simply not charged again.
    async cancelAtPeriodEnd() {},
    // It keeps nothing of its own: a cancellation a crash left unfinished is undone (the customer can cancel again).
    async cancelsAtPeriodEnd() {
      return false;
    },

    // Coupons live in the shop's database only: the sandbox's payment page applies them from there.
    async createCoupon() {
      return { providerCouponId: null, providerPromoCodeId: null };
    },
    async undoCreateCoupon() {},
    async setPromoCodeActive() {},
    async deleteCoupon() {},
    async couponExists() {
      return false;
    },

    async startCardSetup() {
      const setupId = sandboxToken('seti_sandbox');
      const url = `${options.appUrl}${pathTo(paths.sandboxCardSetup, { id: setupId })}`;
      return { setupId, url, providerCustomerId: null };
    },
    // The declining card is refused as a bank would; the test card pays at once, on an invoice of the sandbox's own
    // whose id is the top-up's: asked again, the same invoice, as Stripe answers the same intent to the same key.
    async chargeSavedCard(input) {
      if (input.paymentMethodId !== SANDBOX_CARDS.ok.paymentMethodId) {
        return { status: 'failed', message: topUpMessages.declined, chargeId: null };
      }
      const invoiceId = `in_sandbox_${createHmac('sha256', secret).update(input.topUpId).digest('hex').slice(0, 24)}`;
      return {
        status: 'paid',
        chargeId: invoiceId,
        invoice: {
          id: invoiceId,
          hostedUrl: invoices.invoiceUrl(invoiceId),
          amountCents: input.amountCents,
          discountCents: 0,
          currency: input.currency,
          paidAt: new Date(),
        },
      };
    },
    // Its charges are answered at once: none is ever on its way.
    async chargeStatus() {
      return { status: 'pending', chargeId: null };
    },
    async detachCard() {},

    async parseWebhook(rawBody, signature): Promise<PaymentEvent> {
      let parsed: unknown;
      assertWebhookNotFromFuture(signature);
      try {
        parsed = await Stripe.webhooks.constructEventAsync(rawBody, signature ?? '', secret, WEBHOOK_TOLERANCE_SECONDS);
      } catch {
        throw new WebhookSignatureError();
      }
      const event = sandboxEvent.parse(parsed);
      if (event.type !== SANDBOX_EVENT_TYPES.checkoutPaid)
        return { kind: 'ignored', eventId: event.id, type: event.type };
      const data = checkoutPaidData.parse(event.data);
      const invoice: PaidInvoice = { ...data.invoice, paidAt: new Date(data.invoice.paidAt) };
      return {
        kind: 'checkout.paid',
        eventId: event.id,
        type: event.type,
        orderId: data.orderId,
        invoice,
        customerEmail: data.customerEmail,
        subscriptionId: null,
        customerId: null,
        periodEnd: data.periodEnd ? new Date(data.periodEnd) : null,
      };
    },

    signEvent(type, data) {
      const payload = JSON.stringify({
        id: sandboxToken('evt_sandbox'),
        type,
        created: Math.floor(Date.now() / 1000),
        data,
      });
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
      return { rawBody: Buffer.from(payload), signature };
    },

    ...invoices,
  };
}
