import { TOP_UP_DEFAULTS } from '@storefront/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { cardSetups, topUpSettings } from '../../db/schema.ts';
import type { PaymentEvent, ProviderName } from '../../payments/provider.ts';

/** The settings a customer has before they change anything: off, with the defaults shown on the tab. */
export const defaultSettings = {
  enabled: false,
  thresholdGb: TOP_UP_DEFAULTS.thresholdGb,
  amountGb: TOP_UP_DEFAULTS.amountGb,
  monthlyCapCents: TOP_UP_DEFAULTS.monthlyCapDollars * 100,
  maxPerDay: TOP_UP_DEFAULTS.maxPerDay,
} as const;

/**
 * A card saved on a card page the shop opened for this customer (its row names them, so an event cannot give one
 * customer's card to another), once: it becomes the card top-ups are charged to, replacing any card before it.
 */
export async function saveCard({
  tx,
  provider,
  event,
  now,
}: {
  tx: Tx;
  provider: ProviderName;
  event: Extract<PaymentEvent, { kind: 'card.saved' }>;
  now: Date;
}): Promise<'unknown_order' | 'already_recorded' | 'card_saved'> {
  const [setup] = await tx
    .update(cardSetups)
    .set({ usedAt: now })
    .where(
      and(
        eq(cardSetups.id, event.setupId),
        eq(cardSetups.userId, event.userId),
        eq(cardSetups.provider, provider),
        isNull(cardSetups.usedAt),
      ),
    )
    .returning({ id: cardSetups.id });
  if (!setup) {
    const [known] = await tx.select({ id: cardSetups.id }).from(cardSetups).where(eq(cardSetups.id, event.setupId));
    return known ? 'already_recorded' : 'unknown_order';
  }
  const card = {
    provider,
    paymentMethodId: event.paymentMethodId,
    cardLabel: event.label,
    cardSavedAt: now,
    updatedAt: now,
    ...(event.providerCustomerId && { providerCustomerId: event.providerCustomerId }),
  };
  await tx
    .insert(topUpSettings)
    .values({ userId: event.userId, ...defaultSettings, ...card })
    .onConflictDoUpdate({ target: topUpSettings.userId, set: card });
  return 'card_saved';
}
