import { paths, pathTo } from '@storefront/contract';
import type { Tx } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { SandboxInvoices } from '../../payments/sandbox-provider.ts';
import { handlePaymentEventIn } from './handle-event.ts';
import type { OrderRow } from './order-facts.ts';
import { renewalAmount } from './renewal-amount.ts';

/** The event id of an order's renewal for the period ending at `expiresAt`: one charge per period, whoever makes it. */
const renewalEventId = (order: OrderRow) => `sandbox-renewal:${order.id}:${order.expiresAt?.toISOString() ?? ''}`;

/**
 * The sandbox charges a renewal of the period that ends at the order's `expiresAt`: the periodic job at period end, and
 * the billing page when a customer gives a working card after a failed renewal. Both go through here, so the amount
 * (renewalAmount) and the exactly-once event id are the same whichever charges first.
 */
export async function chargeSandboxRenewal({
  tx,
  brand,
  invoices,
  order,
  paidAt,
  now,
}: {
  tx: Tx;
  brand: Branding;
  invoices: SandboxInvoices;
  /** Locked by the caller. */
  order: OrderRow;
  paidAt: Date;
  now: Date;
}) {
  const invoiceId = invoices.newInvoiceId();
  const { amountCents, discountCents } = await renewalAmount(tx, order);
  return handlePaymentEventIn({
    tx,
    provider: 'sandbox',
    event: {
      kind: 'renewal.paid',
      eventId: renewalEventId(order),
      type: 'sandbox.renewal.paid',
      orderId: order.id,
      subscriptionId: null,
      invoice: {
        id: invoiceId,
        hostedUrl: invoices.invoiceUrl(invoiceId),
        amountCents,
        discountCents,
        currency: order.currency,
        paidAt,
      },
      periodEnd: null,
    },
    brand,
    now,
  });
}

/** The sandbox's renewal with the declining test card: the failure, once per period, pointing at the billing page. */
export async function failSandboxRenewal({
  tx,
  brand,
  order,
  now,
}: {
  tx: Tx;
  brand: Branding;
  order: OrderRow;
  now: Date;
}) {
  return handlePaymentEventIn({
    tx,
    provider: 'sandbox',
    event: {
      kind: 'renewal.failed',
      eventId: `sandbox-renewal-failed:${order.id}:${order.expiresAt?.toISOString() ?? ''}`,
      type: 'sandbox.renewal.failed',
      orderId: order.id,
      subscriptionId: null,
      payUrl: `${brand.appUrl}${pathTo(paths.sandboxBilling, { id: order.id })}`,
      invoiceId: null,
    },
    brand,
    now,
  });
}
