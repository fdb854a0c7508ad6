import {
  orderIdSchema,
  sandboxBillingSchema,
  sandboxCheckoutSchema,
  sandboxClockReportSchema,
  sandboxInvoiceSchema,
  sandboxPayRequestSchema,
  sandboxPayResponseSchema,
} from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { SANDBOX_ID_FORMAT, type SandboxProvider } from '../../payments/sandbox-provider.ts';
import { actorOf, type Guards, signedInOf } from '../auth/guards.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { getSandboxBilling, setSandboxCard } from './billing.ts';
import { getSandboxCheckout } from './checkout-page.ts';
import { getSandboxInvoice } from './invoice.ts';
import { moveSandboxClock } from './move-clock.ts';
import { paySandboxCheckout } from './pay-checkout.ts';

// A malformed id is refused before it reaches the database (a NUL byte, say, which PostgreSQL cannot store in text).
const checkoutParams = z.object({
  id: z.string().regex(SANDBOX_ID_FORMAT.checkout, 'This is not a sandbox checkout id (they look like cs_sandbox_…).'),
});
const invoiceParams = z.object({
  id: z.string().regex(SANDBOX_ID_FORMAT.invoice, 'This is not a sandbox invoice id (they look like in_sandbox_…).'),
});
const orderParams = z.object({ id: orderIdSchema });

export interface SandboxRoutesOptions {
  db: Db;
  guards: Guards;
  provider: SandboxProvider;
  brand: Branding;
  jobs: JobRunner;
}

/**
 * The sandbox provider's hosted pages (ARCHITECTURE section 5): the payment page of a checkout, which only its customer
 * may open and pay, printable invoices reached by their unguessable id, the billing page of a subscription, and the test
 * clock. One use case per file beside this one.
 */
export const sandboxRoutes: FastifyPluginAsync<SandboxRoutesOptions> = async (
  app,
  { db, guards, provider, brand, jobs },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);

  api.get(
    '/sandbox/checkout/:id',
    {
      onRequest: guards.requireUser,
      schema: {
        tags: ['sandbox'],
        summary: 'A sandbox checkout as its payment page shows it',
        params: checkoutParams,
        response: { 200: sandboxCheckoutSchema },
      },
    },
    async (request) =>
      getSandboxCheckout({
        db,
        appUrl: brand.appUrl,
        checkoutId: request.params.id,
        userId: signedInOf(request).user.id,
      }),
  );

  api.post(
    '/sandbox/checkout/:id/pay',
    {
      onRequest: guards.requireUser,
      schema: {
        tags: ['sandbox'],
        summary: 'Pay a sandbox checkout with the test card, or simulate a declined card (no real money moves)',
        params: checkoutParams,
        body: sandboxPayRequestSchema,
        response: { 200: sandboxPayResponseSchema },
      },
    },
    async (request) => {
      const answer = await paySandboxCheckout({
        db,
        provider,
        brand,
        log: request.log,
        checkoutId: request.params.id,
        userId: signedInOf(request).user.id,
        card: request.body.card,
      });
      if (answer.status === 'paid') jobs.flushEmails();
      return answer;
    },
  );

  api.get(
    '/sandbox/invoices/:id',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'A sandbox invoice (printable page)',
        params: invoiceParams,
        response: { 200: sandboxInvoiceSchema },
      },
    },
    async (request) => getSandboxInvoice({ db, invoiceId: request.params.id }),
  );

  api.get(
    '/sandbox/orders/:id/billing',
    {
      onRequest: guards.requireUser,
      schema: {
        tags: ['sandbox'],
        summary: "A sandbox subscription's card and payment state",
        params: orderParams,
        response: { 200: sandboxBillingSchema },
      },
    },
    async (request) => getSandboxBilling({ db, orderId: request.params.id, userId: signedInOf(request).user.id }),
  );

  api.post(
    '/sandbox/orders/:id/card',
    {
      onRequest: guards.requireUser,
      schema: {
        tags: ['sandbox'],
        summary:
          "'Update' the test card of a sandbox subscription; after a failed renewal a working card is charged at once",
        params: orderParams,
        body: sandboxPayRequestSchema,
        response: { 200: sandboxBillingSchema },
      },
    },
    async (request) => {
      const { billing, charged } = await setSandboxCard({
        db,
        brand,
        invoices: provider,
        orderId: request.params.id,
        userId: signedInOf(request).user.id,
        card: request.body.card,
      });
      if (charged) jobs.flushEmails();
      return billing;
    },
  );
};

/** The sandbox's clock, for administrators: registered in the admin context (modules/admin/admin-api.ts). */
export const sandboxAdminRoutes: FastifyPluginAsync<Pick<SandboxRoutesOptions, 'db' | 'jobs'>> = async (
  app,
  { db, jobs },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/admin/sandbox/clock',
    {
      schema: {
        tags: ['sandbox'],
        summary: "Move the sandbox's test clock forward and run the periodic job at that time (administrators)",
        body: z.object({ now: z.string().min(1) }),
        response: { 200: sandboxClockReportSchema },
      },
    },
    async (request) => {
      return moveSandboxClock({ db, jobs, actor: actorOf(request), to: new Date(request.body.now) });
    },
  );
};
