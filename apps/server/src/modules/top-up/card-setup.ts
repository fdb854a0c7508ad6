import { proxiesTabPath, type SandboxCardSetup, topUpMessages } from '@storefront/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cardSetups, topUpSettings } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { SANDBOX_CARDS } from '../../payments/sandbox-provider.ts';
import { handlePaymentEvent } from '../billing/handle-event.ts';
import { defaultSettings } from '../billing/save-card.ts';

const residentialTab = proxiesTabPath('residential_proxies');

/**
 * POST /api/residential/top-up/card: the provider's page where the customer saves a card (no card data reaches the
 * shop). The provider is asked first, outside any transaction; the page is then recorded as this customer's, so that
 * the card it saves can only be theirs, with the customer at the provider for the next page.
 */
export async function startCardSetup({
  db,
  provider,
  brand,
  currency,
  customer,
}: {
  db: Db;
  provider: PaymentProvider;
  brand: Branding;
  currency: string;
  customer: { id: string; email: string };
}): Promise<{ url: string }> {
  const [settings] = await db.select().from(topUpSettings).where(eq(topUpSettings.userId, customer.id));
  const setup = await provider.startCardSetup({
    userId: customer.id,
    customerEmail: customer.email,
    providerCustomerId: settings?.provider === provider.name ? settings.providerCustomerId : null,
    currency,
    successUrl: `${brand.appUrl}${residentialTab}&card=saved`,
    cancelUrl: `${brand.appUrl}${residentialTab}`,
  });
  await db.transaction(async (tx) => {
    await tx.insert(cardSetups).values({ id: setup.setupId, userId: customer.id, provider: provider.name });
    // A card saved with another provider (the shop moved from the sandbox to Stripe) is forgotten: it cannot be charged.
    if (settings && settings.provider !== provider.name && settings.paymentMethodId) {
      await tx
        .update(topUpSettings)
        .set({ enabled: false, paymentMethodId: null, cardLabel: null, cardSavedAt: null, updatedAt: new Date() })
        .where(eq(topUpSettings.userId, customer.id));
    }
    if (setup.providerCustomerId && setup.providerCustomerId !== settings?.providerCustomerId) {
      const atProvider = { provider: provider.name, providerCustomerId: setup.providerCustomerId };
      await tx
        .insert(topUpSettings)
        .values({ userId: customer.id, ...defaultSettings, ...atProvider })
        .onConflictDoUpdate({ target: topUpSettings.userId, set: atProvider });
    }
  });
  return { url: setup.url };
}

/**
 * DELETE /api/residential/top-up/card: the card is detached at the provider first (outside any transaction; a provider
 * that cannot be reached changes nothing here), then forgotten, and top-up turns off.
 */
export async function removeCard({ db, provider, userId }: { db: Db; provider: PaymentProvider; userId: string }) {
  const [settings] = await db.select().from(topUpSettings).where(eq(topUpSettings.userId, userId));
  if (!settings?.paymentMethodId) return;
  if (settings.provider === provider.name) await provider.detachCard(settings.paymentMethodId);
  await db
    .update(topUpSettings)
    .set({ enabled: false, paymentMethodId: null, cardLabel: null, cardSavedAt: null, updatedAt: new Date() })
    .where(and(eq(topUpSettings.userId, userId), eq(topUpSettings.paymentMethodId, settings.paymentMethodId)));
}

async function sandboxSetup(db: Db, id: string, userId: string) {
  const [setup] = await db
    .select()
    .from(cardSetups)
    .where(and(eq(cardSetups.id, id), eq(cardSetups.userId, userId), eq(cardSetups.provider, 'sandbox')));
  if (!setup) throw new AppError('NOT_FOUND', topUpMessages.noSetupPage);
  return setup;
}

/** GET /api/sandbox/card-setups/:id: the customer's own card page, standing in for Stripe's. */
export async function getSandboxCardSetup(db: Db, brand: Branding, id: string, userId: string) {
  const setup = await sandboxSetup(db, id, userId);
  return { id: setup.id, used: setup.usedAt !== null, returnUrl: `${brand.appUrl}${residentialTab}&card=saved` };
}

/**
 * POST /api/sandbox/card-setups/:id: the test card (or the declining one) saved, through the same event and handler as
 * Stripe's setup-mode session completing.
 */
export async function saveSandboxCard({
  db,
  brand,
  id,
  userId,
  card,
}: {
  db: Db;
  brand: Branding;
  id: string;
  userId: string;
  card: 'ok' | 'declined';
}): Promise<SandboxCardSetup> {
  const setup = await sandboxSetup(db, id, userId);
  if (setup.usedAt) throw new AppError('CONFLICT', topUpMessages.setupUsed);
  const outcome = await handlePaymentEvent({
    db,
    provider: 'sandbox',
    brand,
    event: {
      kind: 'card.saved',
      eventId: `sandbox-card:${id}`,
      type: 'sandbox.card.saved',
      setupId: id,
      userId,
      providerCustomerId: null,
      paymentMethodId: SANDBOX_CARDS[card].paymentMethodId,
      label: SANDBOX_CARDS[card].label,
    },
  });
  if (outcome !== 'card_saved') throw new AppError('CONFLICT', topUpMessages.setupUsed);
  return getSandboxCardSetup(db, brand, id, userId);
}
