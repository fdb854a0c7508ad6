import {
  PRODUCTS,
  productIdSchema,
  sandboxCheckoutSchema,
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
import { type Guards, signedInOf } from '../auth/guards.ts';
import { handlePaymentEvent } from './handle-event.ts';
import { SANDBOX_EVENT_TYPES, type SandboxProvider } from './sandbox-provider.ts';

const checkoutNotFound = 'This checkout does not exist or belongs to another account.';
const invoiceNotFound = 'This invoice does not exist.';
const idParams = z.object({ id: z.string().min(1).max(100) });

/**
 * The sandbox provider's hosted pages (ARCHITECTURE section 5): the payment page of a checkout, which only its customer
 * may open and pay, and printable invoices, reached by their unguessable id as Stripe's hosted invoices are.
 */
export const sandboxRoutes: FastifyPluginAsync<{
  db: Db;
  guards: Guards;
  provider: SandboxProvider;
  appUrl: string;
}> = async (app, { db, guards, provider, appUrl }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

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
      preHandler: guards.requireUser,
      schema: {
        tags: ['sandbox'],
        summary: 'A sandbox checkout as its payment page shows it',
        params: idParams,
        response: { 200: sandboxCheckoutSchema },
      },
    },
    async (request) => {
      const { order, code, email } = await checkoutOf(request.params.id, signedInOf(request).user.id);
      const productId = productIdSchema.parse(order.productId);
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
      preHandler: guards.requireUser,
      schema: {
        tags: ['sandbox'],
        summary: 'Pay a sandbox checkout with the test card, or simulate a declined card (no real money moves)',
        params: idParams,
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
      const outcome = await handlePaymentEvent(db, 'sandbox', await provider.parseWebhook(rawBody, signature));
      request.log.info({ orderId: order.id, outcome }, 'sandbox payment');
      return { status: 'paid' as const, redirectUrl: successUrl(order.productId), message: sandboxMessages.paid };
    },
  );

  api.get(
    '/sandbox/invoices/:id',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'A sandbox invoice (printable page)',
        params: idParams,
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
      const productId = productIdSchema.parse(order.productId);
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
};
