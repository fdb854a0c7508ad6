import {
  orderIdSchema,
  PRODUCTS,
  sandboxBillingSchema,
  sandboxCheckoutSchema,
  sandboxClockReportSchema,
  sandboxInvoiceSchema,
  sandboxMessages,
  sandboxPayRequestSchema,
  sandboxPayResponseSchema,
  unitLabel,
} from '@storefront/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { orders, payments, promoCodes, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { type Guards, signedInOf } from '../auth/guards.ts';
import { checkSandboxClockMove, saveSandboxClock } from '../jobs/clock.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { handlePaymentEvent, handlePaymentEventIn } from './handle-event.ts';
import { SANDBOX_EVENT_TYPES, SANDBOX_ID_FORMAT, type SandboxProvider } from './sandbox-provider.ts';

const checkoutNotFound = 'This checkout does not exist or belongs to another account.';
const invoiceNotFound = 'This invoice does not exist.';
// A malformed id is refused before it reaches the database (a NUL byte, say, which PostgreSQL cannot store in text).
const checkoutParams = z.object({
  id: z.string().regex(SANDBOX_ID_FORMAT.checkout, 'This is not a sandbox checkout id (they look like cs_sandbox_…).'),
});
const invoiceParams = z.object({
  id: z.string().regex(SANDBOX_ID_FORMAT.invoice, 'This is not a sandbox invoice id (they look like in_sandbox_…).'),
});

/**
 * The sandbox provider's hosted pages (ARCHITECTURE section 5): the payment page of a checkout, which only its customer
 * may open and pay, and printable invoices, reached by their unguessable id as Stripe's hosted invoices are.
 */
export interface SandboxRoutesOptions {
  db: Db;
  guards: Guards;
  provider: SandboxProvider;
  brand: Branding;
  jobs: JobRunner;
}

export const sandboxRoutes: FastifyPluginAsync<SandboxRoutesOptions> = async (
  app,
  { db, guards, provider, brand, jobs },
) => {
  const appUrl = brand.appUrl;
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);

  async function checkoutOf(checkoutId: string, userId: string) {
    const [row] = await db
      .select({ order: orders, code: promoCodes.code, email: users.email })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .leftJoin(promoCodes, eq(promoCodes.id, orders.promoCodeId))
      .where(and(eq(orders.providerCheckoutId, checkoutId), eq(orders.provider, 'sandbox')));
    if (!row || row.order.userId !== userId) throw new AppError('NOT_FOUND', checkoutNotFound);
    return row;
  }

  const successUrl = (productId: string) => `${appUrl}/dashboard/proxies?tab=${productId}`;

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
    async (request) => {
      const { order, code, email } = await checkoutOf(request.params.id, signedInOf(request).user.id);
      const productId = order.productId;
      const status =
        order.status !== 'awaiting_payment' ? 'paid' : order.sandboxCard === 'declined' ? 'declined' : 'open';
      return {
        id: request.params.id,
        status,
        productId,
        productLabel: PRODUCTS[productId].label,
        quantity: order.quantity,
        unitLabel: unitLabel(productId),
        unitPriceCents: order.unitPriceCents,
        subtotalCents: order.unitPriceCents * order.quantity,
        discountCents: order.discountCents,
        totalCents: order.totalCents,
        currency: order.currency,
        couponCode: code,
        recurring: PRODUCTS[productId].unit === 'ip_month',
        customerEmail: email,
        successUrl: successUrl(productId),
        cancelUrl: `${appUrl}/dashboard/purchase`,
      } as const;
    },
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
      const { order, email } = await checkoutOf(request.params.id, signedInOf(request).user.id);
      if (order.status !== 'awaiting_payment') {
        return { status: 'paid' as const, redirectUrl: successUrl(order.productId), message: sandboxMessages.paid };
      }
      if (request.body.card === 'declined') {
        await db.update(orders).set({ sandboxCard: 'declined', updatedAt: new Date() }).where(eq(orders.id, order.id));
        return { status: 'declined' as const, message: sandboxMessages.declined };
      }
      await db.update(orders).set({ sandboxCard: 'ok', updatedAt: new Date() }).where(eq(orders.id, order.id));
      const invoiceId = provider.newInvoiceId();
      // The page emits a signed event that takes the same verify, de-duplicate and handle path as Stripe's.
      const { rawBody, signature } = provider.signEvent(SANDBOX_EVENT_TYPES.checkoutPaid, {
        orderId: order.id,
        customerEmail: email,
        invoice: {
          id: invoiceId,
          hostedUrl: provider.invoiceUrl(invoiceId),
          amountCents: order.totalCents,
          discountCents: order.discountCents,
          currency: order.currency,
          paidAt: new Date().toISOString(),
        },
        periodEnd: null,
      });
      const outcome = await handlePaymentEvent(db, 'sandbox', await provider.parseWebhook(rawBody, signature), {
        brand,
      });
      request.log.info({ orderId: order.id, outcome }, 'sandbox payment');
      jobs.flushEmails();
      return { status: 'paid' as const, redirectUrl: successUrl(order.productId), message: sandboxMessages.paid };
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
    async (request) => {
      const [row] = await db
        .select({ payment: payments, order: orders, email: users.email })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .innerJoin(users, eq(users.id, payments.userId))
        .where(and(eq(payments.invoiceId, request.params.id), eq(orders.provider, 'sandbox')));
      if (!row) throw new AppError('NOT_FOUND', invoiceNotFound);
      const { payment, order } = row;
      const productId = order.productId;
      const unit = PRODUCTS[productId].unit === 'gb' ? 'GB of residential data' : 'IPs for one month';
      return {
        id: payment.invoiceId,
        number: `SBX-${payment.invoiceId.slice(-8).toUpperCase()}`,
        status: payment.status,
        paidAt: payment.paidAt.toISOString(),
        customerEmail: row.email,
        description: `${PRODUCTS[productId].label}: ${order.quantity} ${unit}`,
        quantity: order.quantity,
        unitPriceCents: order.unitPriceCents,
        subtotalCents: payment.amountCents + payment.discountCents,
        discountCents: payment.discountCents,
        totalCents: payment.amountCents,
        currency: payment.currency,
        orderId: order.id,
      };
    },
  );

  async function billingOf(orderId: string, userId: string) {
    const [order] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.provider, 'sandbox')));
    if (!order || order.status === 'awaiting_payment')
      throw new AppError('NOT_FOUND', 'This order does not exist or belongs to another account.');
    const productId = order.productId;
    return {
      orderId: order.id,
      productLabel: PRODUCTS[productId].label,
      quantity: order.quantity,
      status: order.status,
      card: order.sandboxCard ?? 'ok',
      paymentFailed: order.paymentFailed,
      expiresAt: order.expiresAt?.toISOString() ?? null,
      graceEndsAt: order.graceEndsAt?.toISOString() ?? null,
    };
  }
  const orderParams = z.object({ id: orderIdSchema });

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
    async (request) => billingOf(request.params.id, signedInOf(request).user.id),
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
      const userId = signedInOf(request).user.id;
      await billingOf(request.params.id, userId);
      await db
        .update(orders)
        .set({ sandboxCard: request.body.card, updatedAt: new Date() })
        .where(eq(orders.id, request.params.id));
      if (request.body.card === 'ok') {
        // The next attempt is now: the same exactly-once renewal the periodic job would make.
        await chargeFailedRenewal(request.params.id);
        jobs.flushEmails();
      }
      return billingOf(request.params.id, userId);
    },
  );

  /** After a failed renewal and a new card: one charge for the unpaid period, exactly once. */
  async function chargeFailedRenewal(orderId: string) {
    await db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!order?.paymentFailed || !order.expiresAt || (order.status !== 'delivered' && order.status !== 'processing'))
        return;
      const invoiceId = provider.newInvoiceId();
      const subtotal = order.unitPriceCents * order.quantity;
      await handlePaymentEventIn(
        tx,
        'sandbox',
        {
          kind: 'renewal.paid',
          eventId: `sandbox-renewal:${order.id}:${order.expiresAt.toISOString()}`,
          type: 'sandbox.renewal.paid',
          orderId: order.id,
          subscriptionId: null,
          invoice: {
            id: invoiceId,
            hostedUrl: provider.invoiceUrl(invoiceId),
            amountCents: subtotal,
            discountCents: 0,
            currency: order.currency,
            paidAt: new Date(),
          },
          periodEnd: null,
        },
        { brand },
      );
    });
  }

  api.post(
    '/admin/sandbox/clock',
    {
      onRequest: guards.requireAdmin,
      schema: {
        tags: ['sandbox'],
        summary: "Move the sandbox's test clock forward and run the periodic job at that time (administrators)",
        body: z.object({ now: z.string().min(1) }),
        response: { 200: sandboxClockReportSchema },
      },
    },
    async (request) => {
      const now = await checkSandboxClockMove(db, new Date(request.body.now));
      // The clock is kept only once the run at that time has succeeded: a failed run leaves it where it was.
      const report = await jobs.runOnce(now);
      await saveSandboxClock(db, now);
      return report;
    },
  );
};
