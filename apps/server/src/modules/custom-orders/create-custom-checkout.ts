import { customOrderMessages } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { createCheckout } from '../checkout/create-checkout.ts';

/**
 * POST /api/admin/checkout/pk1/custom: a PK1 order of any quantity from 1 to 1000 for a customer, paid through the payment
 * provider like any checkout, by the customer signed in as themselves (the sandbox's page shows it to nobody else).
 */
export async function createCustomCheckout({
  db,
  provider,
  appUrl,
  currency,
  actor,
  userId,
  quantity,
  coupon,
}: {
  db: Db;
  provider: PaymentProvider;
  appUrl: string;
  currency: string;
  actor: Actor;
  userId: string;
  quantity: number;
  coupon: string | undefined;
}): Promise<{ checkoutUrl: string }> {
  const [customer] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  if (!customer) throw new AppError('NOT_FOUND', customOrderMessages.userNotFound);
  const { orderId, checkoutUrl } = await createCheckout({
    db,
    provider,
    appUrl,
    currency,
    customer,
    custom: true,
    request: { productId: 'pk1_isp_proxies', quantity, coupon },
  });
  await db.transaction(async (tx) =>
    recordAudit({
      tx,
      actor,
      action: 'custom.create',
      summary: `Custom order of ${quantity} PK1 IPs for ${customer.email}${coupon ? ` with ${coupon}` : ''}`,
      details: { orderId, userId, quantity, coupon: coupon ?? null },
    }),
  );
  return { checkoutUrl };
}
