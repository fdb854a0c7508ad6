import { paidReturnPath, sandboxMessages } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { CHECKOUT_PAYABLE_MS } from '../../payments/provider.ts';
import { SANDBOX_EVENT_TYPES, type SandboxProvider } from '../../payments/sandbox-provider.ts';
import { handlePaymentEvent } from '../billing/handle-event.ts';
import { jobTime } from '../jobs/clock.ts';
import { findSandboxCheckout } from './checkout-page.ts';

export const checkoutExpired = `This checkout has expired: a payment page can be paid for ${CHECKOUT_PAYABLE_MS / 60_000} minutes after it opens. Nothing was charged; please start a new checkout from the Purchase page.`;

/**
 * POST /api/sandbox/checkout/:id/pay: the test card pays; the declining one is remembered and refused. A paid checkout
 * emits a signed event that takes the same verify, de-duplicate and handle path as Stripe's.
 */
export async function paySandboxCheckout({
  db,
  provider,
  brand,
  log,
  checkoutId,
  userId,
  card,
}: {
  db: Db;
  provider: SandboxProvider;
  brand: Branding;
  log: FastifyBaseLogger;
  checkoutId: string;
  userId: string;
  card: 'ok' | 'declined';
}) {
  const { order, email } = await findSandboxCheckout({ db, checkoutId, userId });
  const redirectUrl = `${brand.appUrl}${paidReturnPath(order.productId)}`;
  if (order.status !== 'awaiting_payment') {
    return { status: 'paid' as const, redirectUrl, message: sandboxMessages.paid };
  }
  // Like Stripe's page, which closes at the session's expires_at: the checkout's coupon use is held only that long.
  if (order.createdAt.getTime() + CHECKOUT_PAYABLE_MS <= Date.now()) {
    throw new AppError('CONFLICT', checkoutExpired);
  }
  await db.update(orders).set({ sandboxCard: card, updatedAt: new Date() }).where(eq(orders.id, order.id));
  if (card === 'declined') return { status: 'declined' as const, message: sandboxMessages.declined };

  const invoiceId = provider.newInvoiceId();
  const { rawBody, signature } = provider.signEvent(SANDBOX_EVENT_TYPES.checkoutPaid, {
    orderId: order.id,
    customerEmail: email,
    invoice: {
      id: invoiceId,
      hostedUrl: provider.invoiceUrl(invoiceId),
      amountCents: order.totalCents,
      discountCents: order.discountCents,
      currency: order.currency,
      // The sandbox's business time (its test clock, when moved forward), so that the paid month, and the renewal the
      // job charges at its end, are dated on the clock the job runs by, not a month behind it.
      paidAt: (await jobTime(db, true)).toISOString(),
    },
    periodEnd: null,
  });
  const event = await provider.parseWebhook(rawBody, signature);
  const outcome = await handlePaymentEvent({ db, provider: 'sandbox', event, brand });
  log.info({ orderId: order.id, outcome }, 'sandbox payment');
  return { status: 'paid' as const, redirectUrl, message: sandboxMessages.paid };
}
