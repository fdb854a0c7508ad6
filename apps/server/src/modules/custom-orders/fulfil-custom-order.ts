import { type CustomOrder, customOrderMessages, parseFulfilLines, proxyAddress, proxyLine } from '@storefront/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, proxyIps, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { takenEndpoints } from '../inventory/taken-endpoints.ts';
import { subnetOf } from '../inventory/upload-ips.ts';
import { deliveredEmail } from '../notifications/customer-emails.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { listCustomOrders } from './custom-orders.ts';

/**
 * POST /api/admin/orders/fulfill: the administrator's endpoints go into the PK1 pool assigned to the paid custom order,
 * which is then delivered (the customer sees its proxies at once and is told by e-mail), in one transaction. Exactly the
 * order's quantity, each line checked (spec section 5 'Fulfil upload'); a second fulfilment is refused.
 */
export async function fulfilCustomOrder({
  db,
  brand,
  actor,
  userId,
  orderId,
  lines,
}: {
  db: Db;
  brand: Branding;
  actor: Actor;
  userId: string;
  orderId: string;
  lines: readonly string[];
}): Promise<{ customOrders: CustomOrder[] }> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.custom, true)))
      .for('update');
    if (!order) throw new AppError('NOT_FOUND', customOrderMessages.orderNotFound);
    if (order.status === 'awaiting_payment') throw new AppError('CONFLICT', customOrderMessages.notPaid);
    if (order.status !== 'processing') throw new AppError('CONFLICT', customOrderMessages.alreadyFulfilled);

    const parsed = parseFulfilLines(lines, order.quantity);
    if ('error' in parsed) throw new AppError('BAD_REQUEST', parsed.error);
    const keys = parsed.proxies.map((proxy) => proxyAddress(proxy.ip, proxy.port));
    if (new Set(keys).size !== keys.length) {
      throw new AppError('BAD_REQUEST', 'The same ip:port appears more than once in the list.');
    }
    const taken = await takenEndpoints({ tx, endpoints: parsed.proxies });
    if (taken.length > 0) {
      throw new AppError('CONFLICT', customOrderMessages.proxiesTaken(taken));
    }

    await tx.insert(proxyIps).values(
      parsed.proxies.map((proxy) => ({
        productId: 'pk1_isp_proxies' as const,
        ...proxy,
        endpoint: proxyLine(proxyAddress(proxy.ip, proxy.port), proxy.username, proxy.password),
        subnet: subnetOf(proxy.ip),
        assignedOrderId: order.id,
      })),
    );
    await tx.update(orders).set({ status: 'delivered', updatedAt: new Date() }).where(eq(orders.id, order.id));
    const [customer] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    await enqueueEmail(
      tx,
      `delivered:${order.id}`,
      deliveredEmail(brand, customer?.email ?? '', {
        orderId: order.id,
        productId: order.productId,
        quantity: order.quantity,
      }),
    );
    await recordAudit({
      tx,
      actor,
      action: 'custom.fulfil',
      summary: `Custom order ${order.id.slice(0, 8)} fulfilled with ${parsed.proxies.length} proxies for ${customer?.email ?? userId}`,
      details: { orderId: order.id, userId, proxies: parsed.proxies.length },
    });
    return { customOrders: await listCustomOrders({ db: tx, userId }) };
  });
}
