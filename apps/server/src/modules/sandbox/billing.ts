import { PRODUCTS, type SandboxBilling } from '@storefront/contract';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { SandboxInvoices } from '../../payments/sandbox-provider.ts';
import { isLive, type OrderRow } from '../billing/order-facts.ts';
import { chargeSandboxRenewal } from '../billing/sandbox-renewal.ts';

const orderNotFound = 'This order does not exist or belongs to another account.';

function billingOf(order: OrderRow): SandboxBilling {
  return {
    orderId: order.id,
    productLabel: PRODUCTS[order.productId].label,
    quantity: order.quantity,
    status: order.status,
    card: order.sandboxCard ?? 'ok',
    paymentFailed: order.paymentFailed,
    expiresAt: order.expiresAt?.toISOString() ?? null,
    graceEndsAt: order.graceEndsAt?.toISOString() ?? null,
  };
}

async function customersOrder(db: Db | Tx, orderId: string, userId: string, lock: boolean) {
  const query = db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.provider, 'sandbox')));
  const [order] = lock ? await query.for('update') : await query;
  if (!order || order.status === 'awaiting_payment') throw new AppError('NOT_FOUND', orderNotFound);
  return order;
}

/** GET /api/sandbox/orders/:id/billing: the card and payment state of the customer's own sandbox subscription. */
export async function getSandboxBilling({ db, orderId, userId }: { db: Db; orderId: string; userId: string }) {
  return billingOf(await customersOrder(db, orderId, userId, false));
}

/**
 * POST /api/sandbox/orders/:id/card: switches the test card. After a failed renewal a working card is charged at once,
 * in the same transaction, through the same renewal the periodic job makes (same amount, same exactly-once event).
 */
export async function setSandboxCard({
  db,
  brand,
  invoices,
  orderId,
  userId,
  card,
  now = new Date(),
}: {
  db: Db;
  brand: Branding;
  invoices: SandboxInvoices;
  orderId: string;
  userId: string;
  card: 'ok' | 'declined';
  now?: Date;
}): Promise<{ billing: SandboxBilling; charged: boolean }> {
  return db.transaction(async (tx) => {
    const order = await customersOrder(tx, orderId, userId, true);
    await tx.update(orders).set({ sandboxCard: card, updatedAt: now }).where(eq(orders.id, order.id));
    let charged = false;
    if (card === 'ok' && order.paymentFailed && order.expiresAt && isLive(order)) {
      const outcome = await chargeSandboxRenewal({ tx, brand, invoices, order, paidAt: now, now });
      charged = outcome === 'renewed';
    }
    const [updated] = await tx.select().from(orders).where(eq(orders.id, order.id));
    return { billing: billingOf(updated ?? order), charged };
  });
}
