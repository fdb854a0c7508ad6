import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { type orders, users } from '../../db/schema.ts';
import type { OrderFacts } from '../notifications/customer-emails.ts';

/** Spec section 1 and ARCHITECTURE section 4: after a failed renewal the IPs stay for 3 days. */
export const GRACE_DAYS = 3;
export const graceEnd = (from: Date) => new Date(from.getTime() + GRACE_DAYS * 86_400_000);

export type OrderRow = typeof orders.$inferSelect;

/** The order's customer address and what the e-mails say about it. */
export async function emailFacts(tx: Tx, order: OrderRow): Promise<{ to: string; facts: OrderFacts }> {
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, order.userId));
  return {
    to: user?.email ?? '',
    facts: { orderId: order.id, productId: order.productId, quantity: order.quantity },
  };
}

/** An order still running: paid and delivered, or paid and waiting for stock. */
export const isLive = (order: OrderRow) => order.status === 'delivered' || order.status === 'processing';
