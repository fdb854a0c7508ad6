import { PRODUCTS, paidReturnPath, paths, type SandboxCheckout, unitLabel } from '@storefront/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, promoCodes, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

export const checkoutNotFound = 'This checkout does not exist or belongs to another account.';

/** A sandbox checkout with its order, customer address and code; only its own customer may see it. */
export async function findSandboxCheckout({ db, checkoutId, userId }: { db: Db; checkoutId: string; userId: string }) {
  const [row] = await db
    .select({ order: orders, code: promoCodes.code, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(promoCodes, eq(promoCodes.id, orders.promoCodeId))
    .where(and(eq(orders.providerCheckoutId, checkoutId), eq(orders.provider, 'sandbox')));
  if (!row || row.order.userId !== userId) throw new AppError('NOT_FOUND', checkoutNotFound);
  return row;
}

/** GET /api/sandbox/checkout/:id: the checkout as its payment page shows it. */
export async function getSandboxCheckout({
  db,
  appUrl,
  checkoutId,
  userId,
}: {
  db: Db;
  appUrl: string;
  checkoutId: string;
  userId: string;
}): Promise<SandboxCheckout> {
  const { order, code, email } = await findSandboxCheckout({ db, checkoutId, userId });
  const productId = order.productId;
  const status = order.status !== 'awaiting_payment' ? 'paid' : order.sandboxCard === 'declined' ? 'declined' : 'open';
  return {
    id: checkoutId,
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
    successUrl: `${appUrl}${paidReturnPath(productId)}`,
    cancelUrl: `${appUrl}${paths.purchase}`,
  };
}
