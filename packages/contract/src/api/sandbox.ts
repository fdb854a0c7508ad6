import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import {
  sandboxBillingSchema,
  sandboxCheckoutSchema,
  sandboxClockReportSchema,
  sandboxInvoiceSchema,
  sandboxPayRequestSchema,
  sandboxPayResponseSchema,
} from '../schemas/checkout.ts';
import { orderIdSchema } from '../schemas/orders.ts';
import { sandboxCardSetupRequestSchema, sandboxCardSetupSchema } from '../schemas/top-up.ts';
import { routes } from './routes.ts';

/**
 * The sandbox provider's ids, a checkout's and an invoice's: a prefix and 24 characters (12 random bytes in hex; older
 * ids were base64url, still accepted). The server makes them (apps/server/src/payments/sandbox-provider.ts).
 */
export const SANDBOX_ID_PATTERNS = {
  checkout: /^cs_sandbox_[A-Za-z0-9_-]{24}$/,
  invoice: /^in_sandbox_[A-Za-z0-9_-]{24}$/,
  cardSetup: /^seti_sandbox_[A-Za-z0-9_-]{24}$/,
} as const;

// A malformed id is refused before it reaches the database (a NUL byte, say, which PostgreSQL cannot store in text).
const checkoutParams = z.object({
  id: z
    .string()
    .regex(SANDBOX_ID_PATTERNS.checkout, 'This is not a sandbox checkout id (they look like cs_sandbox_…).'),
});
const invoiceParams = z.object({
  id: z.string().regex(SANDBOX_ID_PATTERNS.invoice, 'This is not a sandbox invoice id (they look like in_sandbox_…).'),
});
const orderParams = z.object({ id: orderIdSchema });
const cardSetupParams = z.object({
  id: z
    .string()
    .regex(SANDBOX_ID_PATTERNS.cardSetup, 'This is not a sandbox card page id (they look like seti_sandbox_…).'),
});

/**
 * The sandbox payment provider's hosted pages and its clock (only when PAYMENT_PROVIDER is the sandbox). The payment
 * and billing pages are the customer's own (anyone else gets 404); an invoice is reached by its unguessable id; the
 * clock is for administrators (declared in the admin context with the console's calls).
 */
export const sandboxEndpoints = {
  getSandboxCheckout: endpoint(routes.getSandboxCheckout, {
    tags: ['sandbox'],
    summary: 'A sandbox checkout as its payment page shows it',
    params: checkoutParams,
    status: 200,
    response: sandboxCheckoutSchema,
  }),
  paySandboxCheckout: endpoint(routes.paySandboxCheckout, {
    tags: ['sandbox'],
    summary: 'Pay a sandbox checkout with the test card, or simulate a declined card (no real money moves)',
    params: checkoutParams,
    body: sandboxPayRequestSchema,
    status: 200,
    response: sandboxPayResponseSchema,
  }),
  getSandboxInvoice: endpoint(routes.getSandboxInvoice, {
    tags: ['sandbox'],
    summary: 'A sandbox invoice (printable page)',
    params: invoiceParams,
    status: 200,
    response: sandboxInvoiceSchema,
  }),
  getSandboxBilling: endpoint(routes.getSandboxBilling, {
    tags: ['sandbox'],
    summary: "A sandbox subscription's card and payment state",
    params: orderParams,
    status: 200,
    response: sandboxBillingSchema,
  }),
  setSandboxCard: endpoint(routes.setSandboxCard, {
    tags: ['sandbox'],
    summary:
      "'Update' the test card of a sandbox subscription; after a failed renewal a working card is charged at once",
    params: orderParams,
    body: sandboxPayRequestSchema,
    status: 200,
    response: sandboxBillingSchema,
  }),
  getSandboxCardSetup: endpoint(routes.getSandboxCardSetup, {
    tags: ['sandbox'],
    summary: "A sandbox card page (standing in for Stripe's page in setup mode) as it shows",
    params: cardSetupParams,
    status: 200,
    response: sandboxCardSetupSchema,
  }),
  saveSandboxCard: endpoint(routes.saveSandboxCard, {
    tags: ['sandbox'],
    summary: 'Save the test card, or the declining one, for automatic top-up (no real card is involved)',
    params: cardSetupParams,
    body: sandboxCardSetupRequestSchema,
    status: 200,
    response: sandboxCardSetupSchema,
  }),
  moveSandboxClock: endpoint(routes.moveSandboxClock, {
    tags: ['sandbox'],
    summary: "Move the sandbox's test clock forward and run the periodic job at that time (administrators)",
    body: z.object({ now: z.string().min(1) }),
    status: 200,
    response: sandboxClockReportSchema,
  }),
};
