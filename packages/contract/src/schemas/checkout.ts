// The zod schemas of checkout.ts: what the server validates and serialises, and the API reference; the web app takes
// their types only, so its pages load no zod (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
import { COUPON_CODE_MAX, checkoutMessages, quantityProblem } from '../checkout.ts';
import { CUSTOM_AMOUNT_MAX, CUSTOM_AMOUNT_MIN, PRODUCT_IDS } from '../products.ts';

/** A refused or failed checkout, whatever its status. */
export const checkoutFailureSchema = z.object({ success: z.literal(false), error: z.object({ message: z.string() }) });

export const checkoutResponseSchema = z.union([
  z.object({ success: z.literal(true), checkoutUrl: z.string() }),
  checkoutFailureSchema,
]);
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** Spec section 3 'Order history entry'. `total` is in the currency's smallest unit (cents), as the provider gives it. */
export const orderHistoryEntrySchema = z.object({
  order_id: z.string(),
  stripe_id: z.string(),
  status: z.string(),
  purchased_at: z.string(),
  product_ids: z.array(z.string()),
  total: z.number().int(),
  currency: z.string(),
  hosted_invoice_url: z.string().optional(),
});
export type OrderHistoryEntry = z.infer<typeof orderHistoryEntrySchema>;

export const orderHistorySchema = z.array(orderHistoryEntrySchema);

/** The sandbox provider's hosted payment page (GET /api/sandbox/checkout/{id}). */
export const sandboxCheckoutSchema = z.object({
  id: z.string(),
  status: z.enum(['open', 'paid', 'declined']),
  productId: z.string(),
  productLabel: z.string(),
  quantity: z.number().int(),
  unitLabel: z.string(),
  unitPriceCents: z.number().int(),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  totalCents: z.number().int(),
  currency: z.string(),
  couponCode: z.string().nullable(),
  recurring: z.boolean(),
  customerEmail: z.string(),
  successUrl: z.string(),
  cancelUrl: z.string(),
});
export type SandboxCheckout = z.infer<typeof sandboxCheckoutSchema>;

export const sandboxPayRequestSchema = z.object({ card: z.enum(['ok', 'declined']) });

export const sandboxPayResponseSchema = z.object({
  status: z.enum(['paid', 'declined']),
  redirectUrl: z.string().optional(),
  message: z.string(),
});

/** A sandbox invoice: a printable page (GET /api/sandbox/invoices/{id}). */
export const sandboxInvoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: z.string(),
  paidAt: z.string(),
  customerEmail: z.string(),
  description: z.string(),
  quantity: z.number().int(),
  unitPriceCents: z.number().int(),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  totalCents: z.number().int(),
  currency: z.string(),
  orderId: z.string(),
});
export type SandboxInvoice = z.infer<typeof sandboxInvoiceSchema>;

/** A sandbox subscription's billing page (GET /api/sandbox/orders/{id}/billing). */
export const sandboxBillingSchema = z.object({
  orderId: z.string(),
  productLabel: z.string(),
  quantity: z.number().int(),
  status: z.string(),
  card: z.enum(['ok', 'declined']),
  paymentFailed: z.boolean(),
  expiresAt: z.string().nullable(),
  graceEndsAt: z.string().nullable(),
});
export type SandboxBilling = z.infer<typeof sandboxBillingSchema>;

/** What the sandbox's test clock did (POST /api/admin/sandbox/clock). */
export const sandboxClockReportSchema = z.object({
  now: z.string(),
  renewed: z.number().int(),
  failed: z.number().int(),
  expired: z.number().int(),
  reminded: z.number().int(),
  emailsSent: z.number().int(),
  abandonedRemoved: z.number().int(),
  toppedUp: z.number().int().describe('Automatic top-ups paid'),
  topUpsFailed: z.number().int().describe('Automatic top-ups whose payment failed or needs the customer'),
});
export type SandboxClockReport = z.infer<typeof sandboxClockReportSchema>;

const missing = (input: unknown) => input === undefined || input === null || input === '';

/**
 * POST /api/checkout (spec section 7), with the words each refusal is answered with: a missing choice, an unknown product,
 * a quantity that is not a whole number or not one of the product's bundles, a coupon code that cannot be one.
 */
export const checkoutRequestSchema = z
  .object(
    {
      productId: z.enum(PRODUCT_IDS, {
        error: (issue) => (missing(issue.input) ? checkoutMessages.selectionRequired : checkoutMessages.unknownProduct),
      }),
      // No product sells fewer or more than this (bundles and custom amounts alike); the product's own rule is below.
      quantity: z
        .number({
          error: (issue) =>
            missing(issue.input) ? checkoutMessages.selectionRequired : checkoutMessages.quantityNotWhole,
        })
        .min(CUSTOM_AMOUNT_MIN, checkoutMessages.quantityRange)
        .max(CUSTOM_AMOUNT_MAX, checkoutMessages.quantityRange),
      coupon: z
        .string({ error: checkoutMessages.couponUnknown })
        .trim()
        .max(COUPON_CODE_MAX, checkoutMessages.couponTooLong)
        .nullish()
        .transform((code) => (code ? code : undefined)),
    },
    { error: checkoutMessages.selectionRequired },
  )
  .superRefine(({ productId, quantity }, ctx) => {
    // Outside every product's range the field's own check has said so already.
    if (quantity < CUSTOM_AMOUNT_MIN || quantity > CUSTOM_AMOUNT_MAX) return;
    const problem = quantityProblem(productId, quantity);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['quantity'] });
  });

/** What the Purchase page sends. */
export type CheckoutRequest = z.input<typeof checkoutRequestSchema>;

/** The same, as the server has it after the schema's check (coupon trimmed, or undefined). */
export type CheckoutSelection = z.output<typeof checkoutRequestSchema>;
