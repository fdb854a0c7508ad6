import { type AdminUserLookup, type CustomOrder, customOrderMessages } from '@storefront/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orders, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

const statusOf = (status: (typeof orders.$inferSelect)['status']): CustomOrder['status'] => {
  switch (status) {
    case 'awaiting_payment':
      return 'awaiting_payment';
    case 'processing':
      return 'paid';
    case 'delivered':
      return 'fulfilled';
    default:
      return 'expired';
  }
};

/** A customer's custom orders, newest first (spec section 3 'Custom order'). */
export async function listCustomOrders({ db, userId }: { db: Db | Tx; userId: string }): Promise<CustomOrder[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.custom, true)))
    .orderBy(desc(orders.createdAt));
  return rows.map((row) => ({
    orderId: row.id,
    productId: row.productId,
    quantity: row.quantity,
    status: statusOf(row.status),
    isPaid: row.status !== 'awaiting_payment',
    checkoutLink: row.status === 'awaiting_payment' ? row.checkoutUrl : null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** GET /api/admin/users?email=: the customer (any case, trimmed) and their custom orders; 404 with the spec's words. */
export async function lookUpUser({ db, email }: { db: Db; email: string }): Promise<AdminUserLookup> {
  const [user] = await db
    .select({ id: users.id, email: users.email, createdAt: users.createdAt })
    .from(users)
    // E-mails are stored lower case (as better-auth writes them): the unique index finds the one asked for.
    .where(eq(users.email, email.trim().toLowerCase()));
  if (!user) throw new AppError('NOT_FOUND', customOrderMessages.userNotFound);
  return {
    user: { id: user.id, email: user.email, createdAt: user.createdAt.toISOString() },
    customOrders: await listCustomOrders({ db, userId: user.id }),
  };
}
