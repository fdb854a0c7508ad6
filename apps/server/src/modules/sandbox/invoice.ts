import { PRODUCTS, type SandboxInvoice } from '@storefront/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, payments, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

const invoiceNotFound = 'This invoice does not exist.';

/** GET /api/sandbox/invoices/:id: a printable invoice, reached by its unguessable id as Stripe's hosted invoices are. */
export async function getSandboxInvoice({ db, invoiceId }: { db: Db; invoiceId: string }): Promise<SandboxInvoice> {
  const [row] = await db
    .select({ payment: payments, order: orders, email: users.email })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .innerJoin(users, eq(users.id, payments.userId))
    .where(and(eq(payments.invoiceId, invoiceId), eq(orders.provider, 'sandbox')));
  if (!row) throw new AppError('NOT_FOUND', invoiceNotFound);
  const { payment, order } = row;
  const product = PRODUCTS[order.productId];
  const unit = product.unit === 'gb' ? 'GB of residential data' : 'IPs for one month';
  return {
    id: payment.invoiceId,
    number: `SBX-${payment.invoiceId.slice(-8).toUpperCase()}`,
    status: payment.status,
    paidAt: payment.paidAt.toISOString(),
    customerEmail: row.email,
    description: `${product.label}: ${order.quantity} ${unit}`,
    quantity: order.quantity,
    unitPriceCents: order.unitPriceCents,
    subtotalCents: payment.amountCents + payment.discountCents,
    discountCents: payment.discountCents,
    totalCents: payment.amountCents,
    currency: payment.currency,
    orderId: order.id,
  };
}
